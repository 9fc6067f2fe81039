/**
 * Freeing uploaded files (#31 item 3, docs/SECURITY.md §8): an administrator
 * deletes a chat's or a visitor's files to free space (DELETE
 * /api/v1/chats/:id/uploads, DELETE /api/v1/visitors/:id/uploads), and chat
 * retention (not built yet: it will call freeChatsUploads with the chats it
 * deletes) frees the files of old chats. A freed file's row goes (its bytes no
 * longer count against any quota), the file goes, and the message that carried
 * it stays: its text, file name and size are kept and `file_removed_at` says
 * the file was removed (presented as `file_removed: true`; the file's URL
 * answers 404).
 *
 * In batches, each its own transaction, as the upload sweeper does: the rows
 * are picked (FOR UPDATE on PostgreSQL, so a sweep or another free waits),
 * deleted, their messages marked, then the files removed and the batch
 * committed. A crash before the commit leaves rows whose files are gone; the
 * next free of the same chat (or its sweep) finishes them. Agents' photos are
 * never freed here.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { AppContext } from '../../context.js';
import { inTransaction } from '../../db/database.js';
import { deleteByIds } from '../../db/deleteByIds.js';
import type { Agent, Database } from '../../db/schema.js';
import { notFound } from '../../errors/AppError.js';
import { loadChatFor } from '../chats/loadChat.js';
import { uploadsDir } from './storeUpload.js';

const BATCH_SIZE = 500;

export interface Freed {
  files: number;
  bytes: number;
}

/** Which of the account's uploads to free. */
type Which = (eb: ExpressionBuilder<Database, 'uploads'>) => Expression<SqlBool>;

async function freeWhere(ctx: AppContext, accountId: number, which: Which): Promise<Freed> {
  const dir = uploadsDir(ctx.config.dataDir);
  const freed: Freed = { files: 0, bytes: 0 };
  for (;;) {
    const batch = await inTransaction(ctx.db, async (tx) => {
      const rows = await tx
        .selectFrom('uploads')
        .select(['id', 'name', 'size', 'message_id'])
        .where('account_id', '=', accountId)
        .where('agent_id', 'is', null)
        .where(which)
        .orderBy('id')
        .limit(BATCH_SIZE)
        .$if(ctx.store.dialect === 'postgres', (q) => q.forUpdate())
        .execute();
      if (rows.length === 0) return rows;
      await deleteByIds(
        tx,
        'uploads',
        rows.map((r) => r.id),
      );
      const messageIds = rows.flatMap((r) => (r.message_id === null ? [] : [r.message_id]));
      if (messageIds.length > 0) {
        await tx.updateTable('messages').set({ file_removed_at: ctx.clock() }).where('id', 'in', messageIds).where('account_id', '=', accountId).execute();
      }
      // After the last statement, as the sweeper: the names are ones storeUpload made, checked again all the same.
      for (const row of rows) if (!row.name.includes('/') && !row.name.startsWith('.')) await fs.rm(path.join(dir, row.name), { force: true });
      return rows;
    });
    freed.files += batch.length;
    for (const row of batch) freed.bytes += Number(row.size);
    if (batch.length < BATCH_SIZE) return freed;
    await nextTurn();
  }
}

/** Frees the files the messages of these chats (of the account) carry; for administrators and chat retention. */
export async function freeChatsUploads(ctx: AppContext, accountId: number, chatIds: readonly number[]): Promise<Freed> {
  const total: Freed = { files: 0, bytes: 0 };
  for (let i = 0; i < chatIds.length; i += BATCH_SIZE) {
    const chunk = chatIds.slice(i, i + BATCH_SIZE);
    const freed = await freeWhere(ctx, accountId, (eb) =>
      eb(
        'message_id',
        'in',
        eb.selectFrom('messages').select('messages.id').where('messages.chat_id', 'in', chunk).where('messages.account_id', '=', accountId),
      ),
    );
    total.files += freed.files;
    total.bytes += freed.bytes;
  }
  return total;
}

/** Frees what a visitor uploaded (sent or not) and the files of the visitor's chats (agents' files too). */
export async function freeVisitorUploads(ctx: AppContext, accountId: number, visitorId: number): Promise<Freed> {
  return freeWhere(ctx, accountId, (eb) =>
    eb.or([
      eb('visitor_id', '=', visitorId),
      eb(
        'message_id',
        'in',
        eb
          .selectFrom('messages')
          .innerJoin('chats', 'chats.id', 'messages.chat_id')
          .select('messages.id')
          .where('chats.visitor_id', '=', visitorId)
          .where('chats.account_id', '=', accountId),
      ),
    ]),
  );
}

/** An administrator frees one chat's files (404 for a chat of another account). */
export async function freeChatUploadsFor(ctx: AppContext, actor: Agent, chatId: number): Promise<Freed> {
  const chat = await loadChatFor(ctx.db, actor, chatId);
  return freeChatsUploads(ctx, chat.account_id, [chat.id]);
}

/** An administrator frees one visitor's files (404 for a visitor of another account). */
export async function freeVisitorUploadsFor(ctx: AppContext, actor: Agent, visitorId: number): Promise<Freed> {
  const visitor = await ctx.db.selectFrom('visitors').select('id').where('id', '=', visitorId).where('account_id', '=', actor.account_id).executeTakeFirst();
  if (!visitor) throw notFound('The visitor');
  return freeVisitorUploads(ctx, actor.account_id, visitor.id);
}
