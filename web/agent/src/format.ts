/**
 * Display helpers: names, times, sizes, URL checks. Visitor-supplied strings
 * only ever reach the page as React text or as checked http(s) hrefs.
 */
import type { Chat, Visitor } from './types';

export function visitorName(v: Pick<Visitor, 'name' | 'email' | 'phone'>): string {
  return v.name?.trim() || v.email?.trim() || v.phone?.trim() || 'Anonymous';
}

export function chatTitle(chat: Chat): string {
  return visitorName(chat.visitor);
}

/** http(s) URLs only: anything else (javascript:, data:) is never made a link. */
export function safeHref(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/** https images only, so an avatar never loads over plain http (or from elsewhere than the CSP allows). */
export function safeImage(value: unknown): string | null {
  const href = safeHref(value);
  if (!href) return null;
  return href.startsWith('https:') || new URL(href).origin === location.origin ? href : null;
}

/** Safe URL (spec): with it set, links to other domains are hidden from agents. */
export function allowedBySafeUrl(link: string, safeUrl: string | null | undefined): boolean {
  if (!safeUrl) return true;
  try {
    const host = new URL(link).hostname;
    const safe = new URL(safeUrl).hostname;
    return host === safe || host.endsWith(`.${safe}`);
  } catch {
    return false;
  }
}

export function time(ms: number): string {
  return new Date(ms).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
}

export function dateTime(ms: number | null | undefined): string {
  if (typeof ms !== 'number') return '';
  return new Date(ms).toLocaleString([], { dateStyle: 'medium', timeStyle: 'short' });
}

export function fileSize(bytes: number | undefined): string {
  if (!bytes || bytes < 0) return '';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export function str(value: unknown): string | null {
  if (typeof value === 'string' && value.trim() !== '') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const BROWSERS: Array<[string, RegExp]> = [
  ['Edge', /Edg\/(\d+)/],
  ['Opera', /OPR\/(\d+)/],
  ['Firefox', /Firefox\/(\d+)/],
  ['Chrome', /Chrome\/(\d+)/],
  ['Safari', /Version\/(\d+)[^]*Safari/],
];
const SYSTEMS: Array<[string, RegExp]> = [
  ['Android', /Android/],
  ['iOS', /iPhone|iPad|iPod/],
  ['Windows', /Windows/],
  ['macOS', /Mac OS X|Macintosh/],
  ['Linux', /Linux/],
];

/** A short "Chrome 120 on Windows (desktop)" from a user agent string, for the visitor panel. */
export function describeUserAgent(ua: string): string {
  let browser: string | null = null;
  for (const [name, re] of BROWSERS) {
    const m = re.exec(ua);
    if (m) {
      browser = `${name} ${m[1]}`;
      break;
    }
  }
  const os = SYSTEMS.find(([, re]) => re.test(ua))?.[0] ?? null;
  if (!browser && !os) return ua.slice(0, 120);
  const device = /iPad|Tablet/.test(ua) ? 'tablet' : /Mobi|iPhone/.test(ua) ? 'phone' : 'desktop';
  return `${browser ?? 'Unknown browser'} on ${os ?? 'unknown OS'} (${device})`;
}
