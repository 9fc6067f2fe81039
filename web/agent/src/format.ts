/**
 * Display helpers: names, times, sizes, URL checks. Visitor-supplied strings
 * only ever reach the page as React text or as checked http(s) hrefs.
 */
import { formatDateTime, formatNumber, t } from './i18n';
import type { ChatDto, VisitorDto } from '../../../protocol/agent';

export function visitorName(v: Pick<VisitorDto, 'name' | 'email' | 'phone'>): string {
  return v.name?.trim() || v.email?.trim() || v.phone?.trim() || t('workspace.visitor.anonymous');
}

export function chatTitle(chat: ChatDto): string {
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

/** A time of day in the app's language ("14:05", "02:05 PM"). */
export function time(ms: number): string {
  return formatDateTime(ms, { hour: '2-digit', minute: '2-digit' });
}

/** A date and time in the app's language. */
export function dateTime(ms: number | null | undefined): string {
  if (typeof ms !== 'number') return '';
  return formatDateTime(ms, { dateStyle: 'medium', timeStyle: 'short' });
}

/** One decimal, in the app's number format ("12.1", "12,1"). */
const oneDecimal = (n: number): string => formatNumber(n, { minimumFractionDigits: 1, maximumFractionDigits: 1 });

export function fileSize(bytes: number | undefined): string {
  if (!bytes || bytes < 0) return '';
  if (bytes < 1024) return t('workspace.size.bytes', { size: formatNumber(bytes, { useGrouping: false }) });
  if (bytes < 1024 * 1024) return t('workspace.size.kilobytes', { size: oneDecimal(bytes / 1024) });
  return t('workspace.size.megabytes', { size: oneDecimal(bytes / 1024 / 1024) });
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
  const device = t(/iPad|Tablet/.test(ua) ? 'workspace.device.tablet' : /Mobi|iPhone/.test(ua) ? 'workspace.device.phone' : 'workspace.device.desktop');
  return t('workspace.device.summary', { browser: browser ?? t('workspace.device.unknownBrowser'), os: os ?? t('workspace.device.unknownOs'), device });
}
