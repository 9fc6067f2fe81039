/**
 * The chat_accepted receiver's answer fills the agent's panel (spec C): when
 * `result` is OK (any case; a JSON string wrapping the object is read as the
 * object, answers.ts), custom_data, contact_info (name, phone, email and
 * description, shown and saved as if the visitor introduced himself),
 * enable_assign, crm_link and page are stored on the chat, and agents get
 * chat.updated. The answer's custom_data and page are kept apart
 * (crm_custom_data_json, crm_page_json): the page's own custom data
 * (setCustomData) and the page the visitor is on stay as they were. Fields
 * with a wrong shape are ignored one by one; the accept never waited for this.
 */
import type { AppContext } from '../context.js';
import type { Delivery, VisitorsTable } from '../db/schema.js';
import { recordChatState } from '../domain/chats/chatEvents.js';
import { isHttpUrl, optionalLine, optionalString } from '../domain/messages/normalizeMessage.js';
import { commit } from '../events/outbox.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function customData(v: unknown): Record<string, string>[] | null {
  if (!Array.isArray(v)) return null;
  return v
    .filter(isObject)
    .slice(0, 20)
    .map((item) => {
      const out: Record<string, string> = {};
      for (const key of ['title', 'content', 'key'] as const) {
        const s = optionalString(item[key], 1000);
        if (s) out[key] = s;
      }
      if (isHttpUrl(item.link)) out.link = item.link;
      return out;
    });
}

type ContactInfo = Partial<Pick<VisitorsTable, 'name' | 'phone' | 'email' | 'description'>>;

function contactInfo(v: unknown): ContactInfo | null {
  if (!isObject(v)) return null;
  const out: ContactInfo = {};
  for (const key of ['name', 'phone', 'email'] as const) {
    const s = optionalLine(v[key], 255);
    if (s) out[key] = s;
  }
  const description = optionalString(v.description, 1000);
  if (description) out.description = description;
  return Object.keys(out).length > 0 ? out : null;
}

export async function applyAcceptedAnswer(ctx: AppContext, delivery: Delivery, body: unknown): Promise<void> {
  if (!isObject(body) || typeof body.result !== 'string' || body.result.toLowerCase() !== 'ok' || delivery.chat_id === null) return;
  const chatId = delivery.chat_id;
  const custom = customData(body.custom_data);
  const contact = contactInfo(body.contact_info);
  const page =
    isObject(body.page) && isHttpUrl(body.page.url)
      ? { url: body.page.url, ...(optionalString(body.page.title) ? { title: optionalString(body.page.title) } : {}) }
      : null;
  const now = ctx.clock();
  await commit(ctx.db, ctx.signals, async (tx) => {
    const chat = await tx.selectFrom('chats').selectAll().where('id', '=', chatId).where('account_id', '=', delivery.account_id).executeTakeFirst();
    if (!chat) return;
    // The visitor's row before the chat's, as every writer takes them (an inbound message does): the
    // other order deadlocked with a message arriving at the same moment on PostgreSQL.
    if (contact) {
      await tx
        .updateTable('visitors')
        .set({ ...contact, updated_at: now })
        .where('id', '=', chat.visitor_id)
        .execute();
    }
    const updated = await tx
      .updateTable('chats')
      .set({
        ...(custom ? { crm_custom_data_json: JSON.stringify(custom) } : {}),
        ...(contact ? { contact_info_json: JSON.stringify(contact) } : {}),
        ...(typeof body.enable_assign === 'boolean' ? { enable_assign: body.enable_assign ? 1 : 0 } : {}),
        ...(isHttpUrl(body.crm_link) ? { crm_link: body.crm_link } : {}),
        ...(page ? { crm_page_json: JSON.stringify(page) } : {}),
        updated_at: now,
      })
      .where('id', '=', chat.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordChatState(tx, updated, 'chat.updated', now, { change: 'answer_applied' });
  });
}
