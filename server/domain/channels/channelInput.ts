/**
 * Input rules of channels: which fields belong to which channel type, widget
 * options (colour, allowed domains, identity secret) and the agents assigned to a channel.
 * Each refusal is a 400 saying what is wrong; nothing is stored before all pass.
 */
import crypto from 'node:crypto';
import type { Config } from '../../config/config.js';
import type { Executor } from '../../db/database.js';
import type { Channel } from '../../db/schema.js';
import { invalid } from '../../errors/AppError.js';
import type { WidgetOptions } from '../../model/widgetOptions.js';
// The reading of the stored options is below the domain (the presenters read it too).
export { widgetOptions, type WidgetOptions } from '../../model/widgetOptions.js';
import { checkOutboundUrl } from '../settings/urls.js';

export type ChannelType = Channel['type'];

/** What an admin may send for a channel; which fields apply depends on the type. */
export interface ChannelFields {
  name?: string;
  webhook_url?: string | null;
  chunked?: boolean;
  agent_ids?: number[] | null;
  color?: string | null;
  allowed_domains?: string[] | null;
  rotate_secret?: boolean;
  /** widget: true keeps (or issues) an identity secret for setUserToken signatures; false removes it. */
  identity_verification?: boolean;
  /** widget: true issues a new identity secret (verification must be on). */
  rotate_identity_secret?: boolean;
  /** widget: the page opens the chat from its own button; the default launcher is not shown. */
  hide_launcher?: boolean;
  /** widget: false turns the widget off: open pages lose it within seconds, the loader and the frame answer as for an unknown widget. */
  enabled?: boolean;
  /** widget: the appearance fields to change (appearance.ts); the others keep their value. */
  appearance?: Record<string, unknown>;
}

const ONLY: Record<ChannelType, (keyof ChannelFields)[]> = {
  chat_api: ['color', 'allowed_domains', 'identity_verification', 'rotate_identity_secret', 'hide_launcher', 'enabled', 'appearance'],
  widget: ['webhook_url', 'chunked', 'rotate_secret'],
};

/**
 * Refuses fields of the other channel type that carry a value, so a mistake is
 * not silently ignored (null and false say nothing, so generic forms may send them).
 */
export function refuseForeignFields(type: ChannelType, fields: ChannelFields): void {
  const other = type === 'chat_api' ? 'widget' : 'chat_api';
  const wrong = ONLY[type].filter((k) => fields[k] !== undefined && fields[k] !== null && fields[k] !== false);
  if (wrong.length > 0) throw invalid(`${wrong.join(', ')} ${wrong.length > 1 ? 'apply' : 'applies'} only to ${other} channels, not to ${type} channels.`);
}

/** Bytes of a widget identity secret: 32 random bytes, written as 64 hex characters. */
export const IDENTITY_SECRET_BYTES = 32;

export function newIdentitySecret(): string {
  return crypto.randomBytes(IDENTITY_SECRET_BYTES).toString('hex');
}

/**
 * Applies identity_verification / rotate_identity_secret to widget options:
 * turning it on keeps a secret already there (a form sending `true` again
 * does not break signed pages); rotating needs it on.
 */
export function applyIdentitySecret(options: WidgetOptions, fields: Pick<ChannelFields, 'identity_verification' | 'rotate_identity_secret'>): void {
  const { identity_verification: on, rotate_identity_secret: rotate } = fields;
  if (on === false) {
    if (rotate === true) throw invalid('rotate_identity_secret needs identity verification on, but identity_verification is false.');
    delete options.identity_secret;
    return;
  }
  const has = typeof options.identity_secret === 'string' && options.identity_secret !== '';
  if (rotate === true && !has && on !== true) {
    throw invalid('rotate_identity_secret needs identity verification on; send identity_verification: true to turn it on.');
  }
  if (rotate === true || (on === true && !has)) options.identity_secret = newIdentitySecret();
}

export function cleanWebhookUrl(config: Pick<Config, 'outboundAllowPrivate'>, value: string | null | undefined): string {
  if (value === null || value === undefined) throw invalid('webhook_url is required for a chat_api channel: the http(s) URL agent replies are sent to.');
  return checkOutboundUrl(config, 'webhook_url', value);
}

/** `#rrggbb`, stored lower-case; null clears it. */
export function cleanColor(value: string | null): string | null {
  if (value === null) return null;
  const color = value.trim().toLowerCase();
  if (!/^#[0-9a-f]{6}$/.test(color)) throw invalid(`color must be a hex colour written #rrggbb, such as #1a73e8 (got "${value.slice(0, 40)}").`);
  return color;
}

/** Host names (`shop.example.com`, or `*.example.com` for every subdomain), lower-cased and de-duplicated; null clears the list. */
export function cleanDomains(value: string[] | null): string[] {
  if (value === null) return [];
  if (value.length > 100) throw invalid('allowed_domains may list at most 100 host names.');
  const out = new Set<string>();
  for (const raw of value) {
    const entry = raw.trim().toLowerCase();
    const wildcard = entry.startsWith('*.');
    const host = asciiHost(wildcard ? entry.slice(2) : entry);
    if (host === null) {
      throw invalid(`allowed_domains must list host names such as example.com or *.example.com, without scheme, port or path (got "${raw.slice(0, 100)}").`);
    }
    out.add(`${wildcard ? '*.' : ''}${host}`);
  }
  return [...out];
}

/** The host in the ASCII (punycode) form browsers report, or null when it is not a bare host name. */
function asciiHost(host: string): string | null {
  if (host === '' || host.length > 253 || /[\s/:?#@[\]\\*%]/.test(host)) return null;
  try {
    return new URL(`http://${host}/`).hostname;
  } catch {
    return null;
  }
}

/** De-duplicated agent ids, each an agent of the account; null or [] = every agent of the account. */
export async function checkAgentIds(db: Executor, accountId: number, ids: number[] | null): Promise<number[]> {
  if (ids === null || ids.length === 0) return [];
  const unique = [...new Set(ids)];
  const found = await db.selectFrom('agents').select('id').where('account_id', '=', accountId).where('id', 'in', unique).execute();
  const known = new Set(found.map((r) => r.id));
  const unknown = unique.filter((id) => !known.has(id));
  if (unknown.length > 0) {
    throw invalid(`agent_ids must name agents of this account; ${unknown.slice(0, 10).join(', ')} ${unknown.length > 1 ? 'are' : 'is'} not.`);
  }
  return unique;
}

/** Replaces the channel's assigned agents. */
export async function setChannelAgents(db: Executor, accountId: number, channelId: number, agentIds: number[]): Promise<void> {
  await db.deleteFrom('channel_agents').where('channel_id', '=', channelId).where('account_id', '=', accountId).execute();
  if (agentIds.length === 0) return;
  await db
    .insertInto('channel_agents')
    .values(agentIds.map((agent_id) => ({ account_id: accountId, channel_id: channelId, agent_id })))
    .execute();
}
