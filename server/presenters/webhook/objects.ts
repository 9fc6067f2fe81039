/**
 * The objects of event webhooks (spec C "Event webhook objects"), exactly the
 * fields the spec lists: visitor, session (geoip, utm, utm_json, ip_addr,
 * user_agent), page, agent, department. Chat-channel visitors have no browser
 * session: their session fields are empty strings and objects, never missing.
 * A value not known is left out, never null, also inside what the session
 * stored (geoip, social): strict receivers refuse null where a value is due.
 */
import type { Agent, Visitor } from '../../db/schema.js';
import type { Geoip } from '../../lib/geoip.js';
import { parseJson } from '../../lib/json.js';

export const UTM_KEYS = ['source', 'medium', 'campaign', 'content', 'term'] as const;

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

/** The session's `utm_json`: the values of the page's utm_ parameters. */
export type WebhookUtm = Partial<Record<(typeof UTM_KEYS)[number], string>>;

export interface WebhookSession {
  geoip: WebhookGeoip;
  utm: string;
  utm_json: WebhookUtm;
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

/** The value without nulls, at any depth (stored JSON is read as untrusted). */
export function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.filter((item) => item !== null).map(withoutNulls);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) if (item !== null && item !== undefined) out[key] = withoutNulls(item);
  return out;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Only the geoip fields of lib/geoip.ts that hold a string. */
function cleanGeoip(stored: unknown): WebhookGeoip {
  const out: WebhookGeoip = {};
  if (!isRecord(stored)) return out;
  for (const key of GEOIP_KEYS) {
    const value = stored[key];
    if (typeof value === 'string' && value !== '') out[key] = value;
  }
  return out;
}

const GEOIP_KEYS = ['region_code', 'country', 'country_code', 'region', 'city', 'latitude', 'longitude', 'organization'] as const satisfies ReadonlyArray<
  keyof WebhookGeoip
>;

/** The visitor's stored session; anything but an object reads as none. */
function storedSession(v: Visitor): StoredSession {
  const session = parseJson<unknown>(v.session_json, {});
  return isRecord(session) ? session : {};
}

export function webhookVisitor(v: Visitor): WebhookVisitor {
  const session = storedSession(v);
  const out: WebhookVisitor = { number: String(v.number), description: v.description ?? '', chats_count: v.chats_count };
  if (v.name) out.name = v.name;
  if (v.email) out.email = v.email;
  if (v.phone) out.phone = v.phone;
  const social = withoutNulls(session.social);
  if (isRecord(social) && Object.keys(social).length > 0) out.social = social;
  return out;
}

export function webhookSession(v: Visitor): WebhookSession {
  const session = storedSession(v);
  const utm: WebhookUtm = {};
  for (const key of UTM_KEYS) {
    const value = session.utm?.[key];
    if (typeof value === 'string' && value !== '') utm[key] = value;
  }
  return {
    geoip: cleanGeoip(session.geoip),
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
  const page: unknown = parseJson<unknown>(pageJson, null) ?? storedSession(v).page ?? null;
  if (isRecord(page) && typeof page.url === 'string' && page.url !== '') {
    return typeof page.title === 'string' && page.title !== '' ? { url: page.url, title: page.title } : { url: page.url };
  }
  if (v.url && /^https?:\/\//.test(v.url)) return { url: v.url };
  return undefined;
}
