/**
 * The widget visitor's browser session, kept in visitors.session_json: the
 * webhook fields (StoredSession: ip, user_agent, geoip, utm, page, visits)
 * plus what the widget adds (browser/OS/device, referrer, the widget's language, client attributes,
 * custom data waiting for a chat), and the visit: when it started and the
 * pages seen in it (the last PAGES_KEPT, oldest first; a new visit starts them
 * again). Input cleaning of pages and UTM lives here.
 */
import type { Tx } from '../../db/database.js';
import type { Visitor } from '../../db/schema.js';
import { parseJson, toJson } from '../../lib/json.js';
import type { ParsedUserAgent } from '../../lib/userAgent.js';
import type { WidgetLanguage } from '../../../protocol/widget.js';
import type { StoredSession, WebhookPage } from '../../presenters/webhook/objects.js';
import { isHttpUrl, optionalLine } from '../messages/normalizeMessage.js';

export type ClientAttributes = Record<string, string | number | boolean>;

export interface WidgetCustomField {
  title?: string;
  content?: string;
  link?: string;
  key?: string;
}

export interface WidgetSession extends StoredSession, ParsedUserAgent {
  referrer?: string;
  /** The language the widget is shown in to this visitor (SessionRequest.language), shown in the agent app. */
  language?: WidgetLanguage;
  attributes?: ClientAttributes;
  /** The last setCustomData, copied to the next chat that opens. */
  custom_data?: WidgetCustomField[];
  last_seen_at?: number;
  /** When this visit began (a session call after VISIT_GAP_MS without one starts a new visit). */
  visit_started_at?: number;
  /** Pages seen in this visit, oldest first, at most PAGES_KEPT. */
  pages?: VisitedPage[];
}

/** One page of the visit: where, its title when the page sent one, and when the visitor got there. */
export interface VisitedPage extends WebhookPage {
  at: number;
}

/** How many pages of a visit are kept (the oldest go first). */
export const PAGES_KEPT = 50;

export const UTM_KEYS = ['source', 'medium', 'campaign', 'content', 'term'] as const;

export function readSession(v: Pick<Visitor, 'session_json'>): WidgetSession {
  const parsed = parseJson<unknown>(v.session_json, {});
  return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? parsed : {};
}

export async function writeSession(tx: Tx, visitorId: number, session: WidgetSession, now: number): Promise<Visitor> {
  return tx
    .updateTable('visitors')
    .set({ session_json: toJson(session), updated_at: now })
    .where('id', '=', visitorId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** An http(s) page with an optional title, or null (other schemes are never stored: agents open these links). */
export function cleanPage(raw: unknown): (WebhookPage & { referrer?: string }) | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const page = raw as Record<string, unknown>;
  if (!isHttpUrl(page.url)) return null;
  const out: WebhookPage & { referrer?: string } = { url: page.url };
  const title = optionalLine(page.title, 255);
  if (title) out.title = title;
  if (isHttpUrl(page.referrer)) out.referrer = page.referrer;
  return out;
}

/** utm_* values (without the prefix), strings only, cut to 255 characters; null when none. */
export function cleanUtm(raw: unknown): Record<string, string> | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const out: Record<string, string> = {};
  for (const key of UTM_KEYS) {
    const value = optionalLine((raw as Record<string, unknown>)[key], 255);
    if (value) out[key] = value;
  }
  return Object.keys(out).length > 0 ? out : null;
}

/**
 * The visitor is on `page` now: it joins the visit's pages unless it is the
 * page the list ends with (a reload, or the page's title sent again: only the
 * title is brought up to date). Keeps the last PAGES_KEPT.
 */
export function visitPage(session: WidgetSession, page: WebhookPage, now: number): void {
  const pages = Array.isArray(session.pages) ? session.pages.slice(-PAGES_KEPT) : [];
  const last = pages.at(-1);
  if (last && last.url === page.url) {
    if (page.title) pages[pages.length - 1] = { ...last, title: page.title };
  } else {
    pages.push(page.title ? { url: page.url, title: page.title, at: now } : { url: page.url, at: now });
  }
  session.pages = pages.slice(-PAGES_KEPT);
}
