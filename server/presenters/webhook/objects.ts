/**
 * The objects of event webhooks (spec C "Event webhook objects"), exactly the
 * fields the spec lists: visitor, session (geoip, utm, utm_json, ip_addr,
 * user_agent), page, agent, department. Chat-channel visitors have no browser
 * session: their session fields are empty strings and objects, never missing.
 */
import type { Agent, Visitor } from '../../db/schema.js';
import type { Geoip } from '../../lib/geoip.js';
import { parseJson } from '../../lib/json.js';

export interface WebhookVisitor {
  name?: string;
  email?: string;
  phone?: string;
  number: string;
  description: string;
  social?: Record<string, unknown>;
  chats_count: number;
}

/** The session's `geoip` object: the fields lib/geoip.ts looks up. */
export type WebhookGeoip = Geoip;

export interface WebhookSession {
  geoip: WebhookGeoip;
  utm: string;
  utm_json: Record<string, string>;
  ip_addr: string;
  user_agent: string;
}

export interface WebhookAgent {
  id: number;
  name: string;
  email: string;
  phone?: string;
  /** The agent's photo (an http(s) link or its uploaded file's URL), when set. */
  photo?: string;
}

export interface WebhookPage {
  url: string;
  title?: string;
}

/** What the widget stores in visitors.session_json (the chat channel stores nothing). */
export interface StoredSession {
  ip?: string;
  user_agent?: string;
  geoip?: WebhookGeoip;
  utm?: Record<string, string>;
  page?: WebhookPage;
  social?: Record<string, unknown>;
  visits?: number;
}

export function webhookVisitor(v: Visitor): WebhookVisitor {
  const session = parseJson<StoredSession>(v.session_json, {});
  const out: WebhookVisitor = { number: String(v.number), description: v.description ?? '', chats_count: v.chats_count };
  if (v.name) out.name = v.name;
  if (v.email) out.email = v.email;
  if (v.phone) out.phone = v.phone;
  if (session.social && Object.keys(session.social).length > 0) out.social = session.social;
  return out;
}

const UTM_KEYS = ['source', 'medium', 'campaign', 'content', 'term'] as const;

export function webhookSession(v: Visitor): WebhookSession {
  const session = parseJson<StoredSession>(v.session_json, {});
  const utm: Record<string, string> = {};
  for (const key of UTM_KEYS) {
    const value = session.utm?.[key];
    if (typeof value === 'string' && value !== '') utm[key] = value;
  }
  return {
    geoip: session.geoip ?? {},
    // Deprecated by the spec in favour of utm_json; kept as the query-string form.
    utm: new URLSearchParams(Object.entries(utm).map(([k, val]): [string, string] => [`utm_${k}`, val])).toString(),
    utm_json: utm,
    ip_addr: session.ip ?? '',
    user_agent: session.user_agent ?? '',
  };
}

export function webhookAgent(a: Agent): WebhookAgent {
  const out: WebhookAgent = { id: a.id, name: a.name, email: a.email };
  if (a.phone) out.phone = a.phone;
  if (a.photo_url) out.photo = a.photo_url;
  return out;
}

export function webhookPage(pageJson: string | null, v: Visitor): WebhookPage | undefined {
  const page = parseJson<WebhookPage | null>(pageJson, null) ?? parseJson<StoredSession>(v.session_json, {}).page ?? null;
  if (page?.url) return page.title ? { url: page.url, title: page.title } : { url: page.url };
  if (v.url && /^https?:\/\//.test(v.url)) return { url: v.url };
  return undefined;
}
