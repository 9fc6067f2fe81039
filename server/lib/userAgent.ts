/**
 * Browser, operating system and device of a visitor, parsed from the
 * User-Agent header with ua-parser-js. Only what was recognised is kept.
 */
import { UAParser } from 'ua-parser-js';

export interface ParsedUserAgent {
  browser?: { name?: string; version?: string };
  os?: { name?: string; version?: string };
  device?: { type?: string; vendor?: string; model?: string };
}

function pick<K extends string>(source: Partial<Record<K, unknown>>, keys: readonly K[]): Partial<Record<K, string>> | undefined {
  const out: Partial<Record<K, string>> = {};
  for (const key of keys) {
    const value = source[key];
    if (typeof value === 'string' && value !== '') out[key] = value.slice(0, 100);
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

export function parseUserAgent(ua: string | undefined | null): ParsedUserAgent {
  if (!ua) return {};
  const result = UAParser(ua.slice(0, 1024));
  const out: ParsedUserAgent = {};
  const browser = pick(result.browser, ['name', 'version'] as const);
  const os = pick(result.os, ['name', 'version'] as const);
  // ua-parser leaves type unset for desktops.
  const device = pick(result.device, ['type', 'vendor', 'model'] as const);
  if (browser) out.browser = browser;
  if (os) out.os = os;
  if (device) out.device = device;
  return out;
}
