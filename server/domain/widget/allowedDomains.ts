/**
 * Where a widget may run: a channel's `allowed_domains` (options_json; host
 * names, `*.example.com` for every subdomain, see channels/channelInput.ts).
 * With a list set, browsers may only embed the chat frame on those hosts
 * (frame-ancestors), and the session and socket refuse calls whose Origin is
 * another site. The frame itself runs on PUBLIC_URL, so our own origin, and
 * callers without an Origin (not a browser), pass.
 */
import type { Channel } from '../../db/schema.js';
import { AppError } from '../../errors/AppError.js';
import { widgetOptions } from '../channels/channelInput.js';

export function allowedDomains(channel: Pick<Channel, 'options_json'>): string[] {
  const list = widgetOptions(channel).allowed_domains;
  return Array.isArray(list) ? list.filter((d): d is string => typeof d === 'string' && d !== '') : [];
}

/** Whether `host` is listed, or is a subdomain of a `*.` entry (the apex is not: the same rule as CSP). */
export function hostAllowed(domains: readonly string[], host: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  return domains.some((d) => (d.startsWith('*.') ? h.endsWith(d.slice(1)) && h.length > d.length - 1 : h === d));
}

function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname;
  } catch {
    return null;
  }
}

const refused = (host: string): AppError =>
  new AppError('origin_not_allowed', `This chat widget is not enabled on ${host.slice(0, 100)}; an administrator can add it to the widget's allowed domains.`);

/** 403 when the request's Origin is a site the widget is not allowed on. */
export function checkOrigin(channel: Pick<Channel, 'options_json'>, origin: string | undefined, publicUrl: string): void {
  const domains = allowedDomains(channel);
  if (domains.length === 0 || !origin) return;
  if (origin === new URL(publicUrl).origin) return;
  const host = hostOf(origin);
  if (host === null || !hostAllowed(domains, host)) throw refused(host ?? origin);
}

/** 403 when the page the visitor is on is not on an allowed host. */
export function checkPageHost(channel: Pick<Channel, 'options_json'>, pageUrl: string | null): void {
  const domains = allowedDomains(channel);
  if (domains.length === 0 || pageUrl === null) return;
  const host = hostOf(pageUrl);
  if (host === null || !hostAllowed(domains, host)) throw refused(host ?? pageUrl);
}

/**
 * The Content-Security-Policy value for the chat frame's HTML: only the
 * allowed hosts (either scheme) and ourselves may embed it; any site when
 * no list is set.
 */
export function frameAncestors(channel: Pick<Channel, 'options_json'>): string {
  const domains = allowedDomains(channel);
  if (domains.length === 0) return 'frame-ancestors *';
  const sources = domains.flatMap((d) => [`https://${d}`, `http://${d}`]);
  return `frame-ancestors 'self' ${sources.join(' ')}`;
}
