/**
 * Chat retention (#33, docs/DATA.md "Retention"): in an account with
 * `retention.chats_days` set, finished chats that finished longer ago than
 * that are erased with everything about them, as an erasure does
 * (domain/erasure/eraseChats.ts: messages and their files, search index
 * entries, events, deliveries and mails, calls, report facts); the rollups'
 * totals stay. A visitor left without chats goes too when nothing else
 * makes it worth keeping: no contact details (name, e-mail, phone,
 * description, the contacts form's answer, a user token), no offline message
 * or call, not blacklisted (the ban must outlive its chats).
 *
 * One batch is one transaction (exclusive.ts) removing at most `limit` rows
 * of one kind from a window of the oldest due chats of one account; the pass
 * (worker.ts) runs batches until nothing is due.
 */
import type { AppContext } from '../context.js';
import type { Tx } from '../db/database.js';
import { eraseChatsBatch } from '../domain/erasure/eraseChats.js';
import { DAY_MS } from '../domain/settings/chatRetention.js';
import { exclusively } from './exclusive.js';

/** Chats erased together. */
const CHAT_WINDOW = 50;

async function dropBareVisitors(tx: Tx, accountId: number, visitorIds: readonly number[]): Promise<number> {
  if (visitorIds.length === 0) return 0;
  const res = await tx
    .deleteFrom('visitors')
    .where('account_id', '=', accountId)
    .where('id', 'in', visitorIds)
    .where('blacklisted', '=', 0)
    .where('name', 'is', null)
    .where('email', 'is', null)
    .where('phone', 'is', null)
    .where('description', 'is', null)
    .where('widget_contact_json', 'is', null)
    .where('user_token', 'is', null)
    .where((eb) =>
      eb.and([
        eb.not(eb.exists(eb.selectFrom('chats').select('chats.id').whereRef('chats.visitor_id', '=', 'visitors.id'))),
        eb.not(eb.exists(eb.selectFrom('offline_messages').select('offline_messages.id').whereRef('offline_messages.visitor_id', '=', 'visitors.id'))),
        eb.not(eb.exists(eb.selectFrom('calls').select('calls.id').whereRef('calls.visitor_id', '=', 'visitors.id'))),
        eb.not(
          eb.exists(
            eb.selectFrom('erasures').select('erasures.id').whereRef('erasures.visitor_id', '=', 'visitors.id').where('erasures.status', '=', 'running'),
          ),
        ),
      ]),
    )
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}

export interface ChatsPruned {
  chats: number;
  messages: number;
  visitors: number;
  more: boolean;
}

/** One batch; null when another instance is pruning. */
export async function pruneChats(ctx: AppContext, p: { now: number; limit: number }): Promise<ChatsPruned | null> {
  return exclusively(ctx, async (tx) => {
    const accounts = await tx.selectFrom('settings').select(['account_id', 'retention_chats_days']).where('retention_chats_days', 'is not', null).execute();
    for (const { account_id, retention_chats_days } of accounts) {
      const cutoff = p.now - Number(retention_chats_days) * DAY_MS;
      const chats = await tx
        .selectFrom('chats')
        .select(['id', 'visitor_id'])
        .where('account_id', '=', account_id)
        .where('status', '=', 'finished')
        .where('finished_at', '<', cutoff)
        .orderBy('finished_at')
        .limit(CHAT_WINDOW)
        .execute();
      if (chats.length === 0) continue;
      const batch = await eraseChatsBatch(
        ctx,
        tx,
        account_id,
        chats.map((c) => c.id),
        p.limit,
      );
      const visitors = batch.chats > 0 ? await dropBareVisitors(tx, account_id, [...new Set(chats.map((c) => c.visitor_id))]) : 0;
      return { chats: batch.chats, messages: batch.messages, visitors, more: true };
    }
    return { chats: 0, messages: 0, visitors: 0, more: false };
  });
}
