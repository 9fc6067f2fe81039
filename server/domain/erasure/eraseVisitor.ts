/**
 * One batch of a visitor's erasure job (requestErasure.ts wrote it; the
 * worker, erasureWorker.ts, calls this until it says done). Each batch is a
 * short transaction that first takes the job row (FOR UPDATE SKIP LOCKED on
 * PostgreSQL: another instance working the same job makes this one step
 * aside), removes at most `limit` rows of one kind and records the progress
 * in the job row. The order:
 *   1. the visitor's chats, one window of chats at a time, with all about them
 *      (eraseChats.ts: messages and their files, events, deliveries, reads,
 *      offers, report facts, calls, transcript mails);
 *   2. what is the visitor's without a chat: offline messages, calls, files
 *      uploaded but never sent, transcript mails, the chat channel's
 *      duplicate-detection keys of its sender.id, the deliveries (event
 *      webhooks, mails) about it, and the outbox rows about its offline
 *      messages and calls;
 *   3. the visitor row (its search index entry with it), then the
 *      `visitor_erased` event (the identifiers the integrator knows) and the
 *      job's end; the identifiers leave the job row in the same transaction.
 * On SQLite the write-ahead log is then checkpointed (TRUNCATE), so no page
 * image of the erased rows stays in parley.db-wal.
 */
import { sql } from 'kysely';
import type { AppContext } from '../../context.js';
import { inTransaction, type Tx } from '../../db/database.js';
import { truncateWal } from '../../db/walCheckpointer.js';
import type { Erasure } from '../../db/schema.js';
import { recordEvent } from '../../events/outbox.js';
import { parseJson } from '../../lib/json.js';
import { deleteByIds } from '../../db/deleteByIds.js';
import { deleteEvents, eraseChatsBatch, removeUploadFiles } from './eraseChats.js';
import type { ErasureIdentifiers } from './requestErasure.js';

/** Chats erased together (the `in` list of one batch's statements). */
const CHAT_WINDOW = 50;
/** Event ids looked at per batch when finding the events of no chat about the visitor. */
const EVENT_SCAN_WINDOW = 20_000;

export type StepResult = 'more' | 'done' | 'busy';

async function takeJob(ctx: AppContext, tx: Tx, id: number): Promise<Erasure | null> {
  const job = await tx
    .selectFrom('erasures')
    .selectAll()
    .where('id', '=', id)
    .where('status', '=', 'running')
    .$if(ctx.store.dialect === 'postgres', (q) => q.forUpdate().skipLocked())
    .executeTakeFirst();
  return job ?? null;
}

/**
 * The outbox rows of no chat about the visitor (offline_message.created, call.updated) in the next window of
 * event ids after the job's scan position; null once the scan passed the newest event.
 */
async function noChatEventsOf(tx: Tx, job: Erasure): Promise<{ ids: number[]; through: number } | null> {
  const top = await tx
    .selectFrom('events')
    .select(sql<number>`max(id)`.as('id'))
    .where('account_id', '=', job.account_id)
    .executeTakeFirst();
  const from = Number(job.events_scanned_through);
  if (from >= Number(top?.id ?? 0)) return null;
  const through = from + EVENT_SCAN_WINDOW;
  const patterns = [`%"visitor_id":${job.visitor_id},%`, `%"visitor_id":${job.visitor_id}}%`];
  const rows = await tx
    .selectFrom('events')
    .select('id')
    .where('account_id', '=', job.account_id)
    .where('id', '>', from)
    .where('id', '<=', through)
    .where('chat_id', 'is', null)
    .where('type', 'in', ['offline_message.created', 'call.updated'])
    .where((eb) => eb.or(patterns.map((p) => eb('data_json', 'like', p))))
    .execute();
  return { ids: rows.map((r) => r.id), through };
}

/** Step 2, one kind per call; false once nothing of the visitor without a chat is left. */
async function eraseVisitorRows(ctx: AppContext, tx: Tx, job: Erasure, limit: number): Promise<{ files: number; more: boolean }> {
  const a = job.account_id;
  const v = job.visitor_id;
  const events = await noChatEventsOf(tx, job);
  if (events) {
    await deleteEvents(tx, a, events.ids);
    await tx.updateTable('erasures').set({ events_scanned_through: events.through }).where('id', '=', job.id).execute();
    return { files: 0, more: true };
  }
  const deliveries = await tx.selectFrom('deliveries').select('id').where('visitor_id', '=', v).where('account_id', '=', a).limit(limit).execute();
  if (deliveries.length > 0) {
    await deleteByIds(
      tx,
      'deliveries',
      deliveries.map((d) => d.id),
    );
    return { files: 0, more: true };
  }
  const uploads = await tx.selectFrom('uploads').select(['id', 'name']).where('visitor_id', '=', v).where('account_id', '=', a).limit(limit).execute();
  if (uploads.length > 0) {
    await deleteByIds(
      tx,
      'uploads',
      uploads.map((u) => u.id),
    );
    await removeUploadFiles(
      ctx,
      uploads.map((u) => u.name),
    );
    return { files: uploads.length, more: true };
  }
  await tx.deleteFrom('offline_messages').where('visitor_id', '=', v).where('account_id', '=', a).execute();
  await tx.deleteFrom('calls').where('visitor_id', '=', v).where('account_id', '=', a).execute();
  await tx.deleteFrom('transcript_mails').where('visitor_id', '=', v).where('account_id', '=', a).execute();
  const ids = parseJson<Partial<ErasureIdentifiers> & { external_id?: string }>(job.identifiers_json, {});
  if (job.channel_id !== null && typeof ids.external_id === 'string') {
    await tx.deleteFrom('inbound_dedup').where('channel_id', '=', job.channel_id).where('sender_id', '=', ids.external_id).execute();
  }
  return { files: 0, more: false };
}

/** Step 3: the visitor row, visitor_erased and the job's end. */
async function finish(ctx: AppContext, tx: Tx, job: Erasure, now: number): Promise<void> {
  await tx.deleteFrom('visitors').where('id', '=', job.visitor_id).where('account_id', '=', job.account_id).execute();
  const ids = parseJson<Partial<ErasureIdentifiers>>(job.identifiers_json, {});
  await recordEvent(
    tx,
    {
      accountId: job.account_id,
      channelId: job.channel_id,
      type: 'visitor.erased',
      data: {
        erasure_id: job.id,
        visitor_id: job.visitor_id,
        visitor_number: job.visitor_number,
        channel_id: job.channel_id,
        user_token: ids.user_token ?? null,
        sender_id: ids.sender_id ?? null,
        sender_id_is_number: ids.sender_id_is_number === true,
      },
    },
    now,
  );
  await tx.updateTable('erasures').set({ status: 'done', identifiers_json: null, updated_at: now, finished_at: now }).where('id', '=', job.id).execute();
}

/** One batch of job `id`: `more` to call again, `done` when it ended (or was not running), `busy` when another instance holds it. */
export async function eraseVisitorStep(ctx: AppContext, id: number, limit: number): Promise<StepResult> {
  const now = ctx.clock();
  const result = await inTransaction(ctx.db, async (tx): Promise<StepResult | 'finished'> => {
    const job = await takeJob(ctx, tx, id);
    if (!job) {
      const exists = await tx.selectFrom('erasures').select('status').where('id', '=', id).executeTakeFirst();
      return exists?.status === 'running' ? 'busy' : 'done';
    }
    const chats = await tx
      .selectFrom('chats')
      .select('id')
      .where('visitor_id', '=', job.visitor_id)
      .where('account_id', '=', job.account_id)
      .orderBy('id')
      .limit(CHAT_WINDOW)
      .execute();
    if (chats.length > 0) {
      const batch = await eraseChatsBatch(
        ctx,
        tx,
        job.account_id,
        chats.map((c) => c.id),
        limit,
      );
      await tx
        .updateTable('erasures')
        .set({
          messages_erased: sql<number>`messages_erased + ${batch.messages}`,
          files_erased: sql<number>`files_erased + ${batch.files}`,
          chats_erased: sql<number>`chats_erased + ${batch.chats}`,
          updated_at: now,
        })
        .where('id', '=', job.id)
        .execute();
      return 'more';
    }
    const rest = await eraseVisitorRows(ctx, tx, job, limit);
    if (rest.more) {
      if (rest.files > 0) {
        await tx
          .updateTable('erasures')
          .set({ files_erased: sql<number>`files_erased + ${rest.files}`, updated_at: now })
          .where('id', '=', job.id)
          .execute();
      }
      return 'more';
    }
    await finish(ctx, tx, job, now);
    return 'finished';
  });
  if (result !== 'finished') return result;
  if (ctx.store.dialect === 'sqlite') await truncateWal(ctx.db);
  return 'done';
}
