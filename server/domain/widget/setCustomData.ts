/**
 * svc_api.setCustomData: fields for the agent's information panel, in array
 * order. Rules: an array is required ("Custom data must be array."), at most
 * 10 fields (the rest are dropped and counted, so the page is told), string values only (title, content, link, key), each cut to
 * 1000 characters; HTML is kept as text (the agent app shows it as text).
 * Links must be http(s); with the account's Safe URL set, links to hosts other
 * than the Safe URL's host or its subdomains are dropped. The data is kept on
 * the visitor's session (and copied to the next chat that opens); with a chat
 * open it is stored on it too and chat.updated (change custom_data) is recorded.
 */
import { MAX_CUSTOM_FIELDS } from '../../../protocol/widget.js';
import type { AppContext } from '../../context.js';
import type { Visitor } from '../../db/schema.js';
import { invalid } from '../../errors/AppError.js';
import { commit } from '../../events/outbox.js';
import { toJson } from '../../lib/json.js';
import { recordChatState } from '../chats/chatEvents.js';
import { findOpenChat } from '../chats/openChat.js';
import { isHttpUrl, optionalString } from '../messages/normalizeMessage.js';
import { settingsOf } from '../settings/getSettings.js';
import { readSession, writeSession, type WidgetCustomField } from './session.js';
import { lockVisitor } from './visitorAccess.js';

export const CUSTOM_DATA_MUST_BE_ARRAY = 'Custom data must be array.';
const TEXT_KEYS = ['title', 'content', 'key'] as const;

function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return null;
  }
}

/** Whether a link may be shown: its host is the Safe URL's host or a subdomain of it (any host without a Safe URL). */
export function linkAllowed(link: string, safeUrl: string | null): boolean {
  if (safeUrl === null) return true;
  const safe = hostOf(safeUrl);
  const host = hostOf(link);
  return safe !== null && host !== null && (host === safe || host.endsWith(`.${safe}`));
}

export function cleanCustomData(fields: unknown, safeUrl: string | null): WidgetCustomField[] {
  if (!Array.isArray(fields)) throw invalid(CUSTOM_DATA_MUST_BE_ARRAY);
  const out: WidgetCustomField[] = [];
  for (const item of fields.slice(0, MAX_CUSTOM_FIELDS)) {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) continue;
    const raw = item as Record<string, unknown>;
    const field: WidgetCustomField = {};
    for (const key of TEXT_KEYS) {
      const value = optionalString(raw[key], 1000);
      if (value) field[key] = value;
    }
    if (isHttpUrl(raw.link) && linkAllowed(raw.link, safeUrl)) field.link = raw.link;
    if (Object.keys(field).length > 0) out.push(field);
  }
  return out;
}

/** What setCustomData kept, and how many fields past the limit it left out. */
export interface CustomDataResult {
  fields: WidgetCustomField[];
  dropped: number;
}

export async function setCustomData(ctx: AppContext, input: { visitor: Visitor; fields: unknown }): Promise<CustomDataResult> {
  const now = ctx.clock();
  const settings = await settingsOf(ctx.db, input.visitor.account_id, now);
  const fields = cleanCustomData(input.fields, settings.safe_url);
  const dropped = Array.isArray(input.fields) ? Math.max(0, input.fields.length - MAX_CUSTOM_FIELDS) : 0;
  return commit(ctx.db, ctx.signals, async (tx) => {
    const visitor = await lockVisitor(tx, input.visitor.id, now);
    await writeSession(tx, visitor.id, { ...readSession(visitor), custom_data: fields }, now);
    const chat = await findOpenChat(tx, visitor.id);
    if (chat) {
      const updated = await tx
        .updateTable('chats')
        .set({ custom_data_json: toJson(fields), updated_at: now })
        .where('id', '=', chat.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      await recordChatState(tx, updated, 'chat.updated', now, { change: 'custom_data' });
    }
    return { fields, dropped };
  });
}
