/**
 * Rules for URLs an admin configures: every one must be an absolute http(s)
 * URL; those the service will send requests to (a channel's webhook_url, the
 * event_webhook_url) must not name a loopback, private or link-local host
 * unless OUTBOUND_ALLOW_PRIVATE=1. This checks the host as written; the
 * deliverer re-checks the resolved addresses at send time.
 * URLs are stored as given (trimmed), never re-serialized: the chat channel
 * joins `webhook_url + "/" + public_id` as plain strings.
 */
import net from 'node:net';
import type { Config } from '../../config/config.js';
import { AppError, invalid } from '../../errors/AppError.js';
import { classifyAddress } from '../../webhooks/ssrf.js';

export const MAX_URL_LENGTH = 2048;

/**
 * Why a URL host (as `new URL().hostname` gives it: IPv4 normalized, IPv6 in
 * brackets) may not be targeted — "a loopback address", … — or null when it
 * is a public address or a DNS name. Literal addresses are judged by the
 * deliverer's own rule (webhooks/ssrf.ts), so configuration and sending agree.
 */
export function privateHostReason(hostname: string): string | null {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return 'a loopback host name';
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  return net.isIP(bare) ? classifyAddress(bare) : null;
}

/** The trimmed URL when it is an absolute http(s) URL, or 400 naming `field`. */
export function checkHttpUrl(field: string, value: string): { url: string; hostname: string } {
  const url = value.trim();
  const problem = (why: string): AppError => invalid(`${field} must be an absolute http:// or https:// URL ${why}.`);
  if (url === '') throw problem('(it is empty)');
  if (url.length > MAX_URL_LENGTH) throw problem(`of at most ${MAX_URL_LENGTH} characters`);
  // eslint-disable-next-line no-control-regex
  if (/[\s\u0000-\u001f\u007f]/.test(url)) throw problem('without spaces or control characters');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw problem(`(got "${url.slice(0, 100)}")`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw problem(`(got the scheme "${parsed.protocol}")`);
  if (parsed.hostname === '') throw problem('with a host name');
  return { url, hostname: parsed.hostname };
}

/**
 * A URL the service will POST to: http(s), no fragment (the channel id is
 * appended to it), and no private host unless the config allows it.
 */
export function checkOutboundUrl(config: Pick<Config, 'outboundAllowPrivate'>, field: string, value: string): string {
  const { url, hostname } = checkHttpUrl(field, value);
  if (url.includes('#')) throw invalid(`${field} must not contain a fragment ("#…"): the service appends to it when sending.`);
  const reason = config.outboundAllowPrivate ? null : privateHostReason(hostname);
  if (reason) {
    throw new AppError(
      'outbound_url_refused',
      `${field} points to ${hostname}, ${reason}; the service does not send requests to private networks (OUTBOUND_ALLOW_PRIVATE=1 allows it).`,
    );
  }
  return url;
}
