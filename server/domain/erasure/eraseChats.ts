/**
 * Erasing chats with everything about them, one bounded batch at a time
 * (#33; used by a visitor's erasure, eraseVisitor.ts, and by chat retention,
 * retention/pruneChats.ts). One call is one short transaction that removes
 * at most `limit` rows of one kind, in this order, so each batch holds the
 * store (SQLite's one writer, PostgreSQL's row locks) briefly (messages: at most 100 a batch on SQLite,
 * where the search index's secure delete makes each one dearer):
 *   1. messages (their search index entries go with them: the FTS5 triggers on
 *      SQLite, the expression index on PostgreSQL), with the files they carry
 *      (uploads rows and the files under DATA_DIR/uploads);
 *   2. the outbox and replay rows of the chats (events);
 *   3. deliveries about the chats: chat-channel requests, event webhooks,
 *      mails (transcripts, archive copies), bodies and answers with them;
 *   4. the chats' own rows: reads, offers, report facts (the rollups' totals
 *      stay: report_hourly and report_daily hold no chat), calls, transcript
 *      mails, and the chats.
 * A crash between batches loses nothing: the next call goes on from what is left.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { AppContext } from '../../context.js';
import type { Tx } from '../../db/database.js';
import { deleteByIds } from '../../db/deleteByIds.js';
import { uploadsDir } from '../uploads/storeUpload.js';

/**
 * Messages per batch on SQLite: with FTS5's secure-delete each deleted row rewrites the index pages of
 * each of its words (measured: about 0.24 ms a message, 118 ms for 500, where a plain delete takes 7 ms),
 * so batches stay short enough (about 25 ms) for requests to interleave with them.
 */
const SQLITE_MESSAGES_PER_BATCH = 100;

export interface ChatsBatch {
  messages: number;
  files: number;
  /** Chats whose rows went in this batch. */
  chats: number;
  /** Whether anything of these chats is left. */
  more: boolean;
}

/** Removes files of upload rows (names storeUpload made, checked again all the same). */
export async function removeUploadFiles(ctx: AppContext, names: readonly string[]): Promise<void> {
  const dir = uploadsDir(ctx.config.dataDir);
  for (const name of names) if (!name.includes('/') && !name.startsWith('.') && name !== '') await fs.rm(path.join(dir, name), { force: true });
}

/** Deletes these outbox rows of the account and the deliveries made of them. */
export async function deleteEvents(tx: Tx, accountId: number, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await tx.deleteFrom('deliveries').where('event_id', 'in', ids).where('account_id', '=', accountId).execute();
  await deleteByIds(tx, 'events', ids);
}

/** Deletes the uploads rows of these messages; returns their file names (removed by the caller before commit). */
async function takeMessageUploads(tx: Tx, accountId: number, messageIds: readonly number[]): Promise<string[]> {
  const rows = await tx.selectFrom('uploads').select(['id', 'name']).where('account_id', '=', accountId).where('message_id', 'in', messageIds).execute();
  if (rows.length === 0) return [];
  await deleteByIds(
    tx,
    'uploads',
    rows.map((r) => r.id),
  );
  return rows.map((r) => r.name);
}

/** One batch over these chats of the account (at most `limit` rows of one kind); run it in its own transaction. */
export async function eraseChatsBatch(ctx: AppContext, tx: Tx, accountId: number, chatIds: readonly number[], limit: number): Promise<ChatsBatch> {
  const none: ChatsBatch = { messages: 0, files: 0, chats: 0, more: false };
  if (chatIds.length === 0) return none;
  const messages = await tx
    .selectFrom('messages')
    .select('id')
    .where('account_id', '=', accountId)
    .where('chat_id', 'in', chatIds)
    .orderBy('id')
    .limit(ctx.store.dialect === 'sqlite' ? Math.min(limit, SQLITE_MESSAGES_PER_BATCH) : limit)
    .execute();
  if (messages.length > 0) {
    const ids = messages.map((m) => m.id);
    const files = await takeMessageUploads(tx, accountId, ids);
    await tx.deleteFrom('messages').where('id', 'in', ids).execute();
    await removeUploadFiles(ctx, files);
    return { messages: ids.length, files: files.length, chats: 0, more: true };
  }
  const events = await tx.selectFrom('events').select('id').where('chat_id', 'in', chatIds).where('account_id', '=', accountId).limit(limit).execute();
  if (events.length > 0) {
    await deleteEvents(
      tx,
      accountId,
      events.map((e) => e.id),
    );
    return { ...none, more: true };
  }
  const deliveries = await tx.selectFrom('deliveries').select('id').where('chat_id', 'in', chatIds).where('account_id', '=', accountId).limit(limit).execute();
  if (deliveries.length > 0) {
    await deleteByIds(
      tx,
      'deliveries',
      deliveries.map((d) => d.id),
    );
    return { ...none, more: true };
  }
  await tx.deleteFrom('chat_reads').where('chat_id', 'in', chatIds).execute();
  await tx.deleteFrom('chat_offers').where('chat_id', 'in', chatIds).where('account_id', '=', accountId).execute();
  await tx.deleteFrom('report_chat_facts').where('chat_id', 'in', chatIds).where('account_id', '=', accountId).execute();
  await tx.deleteFrom('transcript_mails').where('chat_id', 'in', chatIds).where('account_id', '=', accountId).execute();
  await tx.deleteFrom('calls').where('chat_id', 'in', chatIds).where('account_id', '=', accountId).execute();
  const gone = await tx.deleteFrom('chats').where('id', 'in', chatIds).where('account_id', '=', accountId).executeTakeFirst();
  return { ...none, chats: Number(gone.numDeletedRows) };
}
