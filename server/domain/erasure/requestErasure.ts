/**
 * An administrator asks to erase a visitor (DELETE /api/v1/visitors/:id, #33,
 * docs/DATA.md "Erasure"). In one transaction the visitor's own details go at
 * once (name, e-mail, phone, photo, page, contact answers, user token,
 * session, the widget token) and its external id (sender.id or the widget's
 * visitor id) is replaced by one no sender can have, so the next message of
 * that sender, or a page with the old widget token, starts a new visitor; an
 * `erasures` job row records what is left to erase. After the commit the
 * visitor's open widget sockets close and the erasure worker
 * (erasureWorker.ts) erases the rest in bounded batches. Asking again while
 * a job runs answers that job.
 */
import { sql } from 'kysely';
import type { AppContext } from '../../context.js';
import { inTransaction } from '../../db/database.js';
import type { Agent, Erasure } from '../../db/schema.js';
import { notFound } from '../../errors/AppError.js';
import { toJson } from '../../lib/json.js';
import { BLANK_VISITOR_FIELDS } from '../visitors/insertVisitors.js';

/** Longer than any sender.id (255 characters at most) or widget visitor id: no sender is ever matched to it again. */
export function erasedExternalId(erasureId: number): string {
  return `erased:${erasureId}:${'-'.repeat(256)}`;
}

export interface ErasureIdentifiers {
  user_token: string | null;
  sender_id: string | null;
  sender_id_is_number: boolean;
}

export async function requestErasure(ctx: AppContext, actor: Agent, visitorId: number): Promise<{ erasure: Erasure; started: boolean }> {
  const now = ctx.clock();
  const result = await inTransaction(ctx.db, async (tx) => {
    const visitor = await tx
      .selectFrom('visitors')
      .selectAll()
      .where('id', '=', visitorId)
      .where('account_id', '=', actor.account_id)
      .$if(ctx.store.dialect === 'postgres', (q) => q.forUpdate())
      .executeTakeFirst();
    if (!visitor) throw notFound('The visitor');
    const running = await tx
      .selectFrom('erasures')
      .selectAll()
      .where('account_id', '=', actor.account_id)
      .where('visitor_id', '=', visitor.id)
      .where('status', '=', 'running')
      .executeTakeFirst();
    if (running) return { erasure: running, started: false };
    const counts = await tx
      .selectFrom('chats')
      .leftJoin('messages', 'messages.chat_id', 'chats.id')
      .select([sql<number>`count(distinct chats.id)`.as('chats'), sql<number>`count(messages.id)`.as('messages')])
      .where('chats.visitor_id', '=', visitor.id)
      .where('chats.account_id', '=', actor.account_id)
      .executeTakeFirstOrThrow();
    const widget = visitor.token_hash !== null;
    const identifiers: ErasureIdentifiers = {
      user_token: visitor.user_token,
      sender_id: widget ? null : visitor.external_id,
      sender_id_is_number: visitor.external_id_is_number === 1,
    };
    const erasure = await tx
      .insertInto('erasures')
      .values({
        account_id: actor.account_id,
        visitor_id: visitor.id,
        visitor_number: visitor.number,
        channel_id: visitor.channel_id,
        requested_by: actor.id,
        status: 'running',
        chats_total: Number(counts.chats),
        chats_erased: 0,
        messages_total: Number(counts.messages),
        messages_erased: 0,
        files_erased: 0,
        identifiers_json: toJson({ ...identifiers, external_id: visitor.external_id }),
        created_at: now,
        updated_at: now,
        finished_at: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await tx
      .updateTable('visitors')
      .set({
        external_id: erasedExternalId(erasure.id),
        ...BLANK_VISITOR_FIELDS,
        updated_at: now,
      })
      .where('id', '=', visitor.id)
      .execute();
    return { erasure, started: true };
  });
  if (result.started) {
    ctx.widgetSockets.closeVisitor(visitorId);
    ctx.erasureWake.wake();
  }
  return result;
}
