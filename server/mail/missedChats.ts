/**
 * The missed-chat sweep: when an account sets `notifications.missed_chat_minutes`,
 * a chat no agent answered within that many minutes of its start is missed
 * (the one rule: domain/chats/missedChat.ts). markMissed writes `missed_at`
 * and chat.updated (change missed) once, by a conditional UPDATE, so of several
 * instances sweeping only one does; from that event the mail subscriber
 * writes the missed-chat mail (mail/subscriber.ts), the event webhooks send
 * chat_missed, and the reports count the chat as missed.
 * A worker sweeps every SWEEP_INTERVAL_MS; tests call sweepMissedChats directly
 * with a moved clock. A failed sweep is logged and retried on the next turn.
 */
import type { AppContext, Worker } from '../context.js';
import { markMissed, missesAt } from '../domain/chats/missedChat.js';
import { commit } from '../events/outbox.js';

export const SWEEP_INTERVAL_MS = 30_000;
const BATCH = 100;

/** Marks the open chats no agent answered within their account's limit missed; returns how many. */
export async function sweepMissedChats(ctx: AppContext): Promise<number> {
  const now = ctx.clock();
  const due = await ctx.db
    .selectFrom('chats')
    .innerJoin('settings', 'settings.account_id', 'chats.account_id')
    .select(['chats.id', 'chats.created_at', 'settings.missed_chat_minutes'])
    .where('chats.status', 'in', ['pending', 'active'])
    .where('chats.missed_at', 'is', null)
    .where('chats.first_response_at', 'is', null)
    .where('settings.missed_chat_minutes', 'is not', null)
    .orderBy('chats.id')
    .limit(BATCH * 10)
    .execute();
  let marked = 0;
  for (const chat of due) {
    if (marked >= BATCH) break;
    const at = missesAt(chat, chat.missed_chat_minutes);
    if (at === null || at > now) continue;
    if (await commit(ctx.db, ctx.signals, async (tx) => (await markMissed(tx, chat.id, now)) !== null)) marked++;
  }
  return marked;
}

export const missedChatWorker: Worker = async (app, ctx) => {
  let stopped = false;
  let running: Promise<void> | null = null;
  const timer = setInterval(() => {
    if (stopped || running) return;
    running = sweepMissedChats(ctx)
      .then(
        () => undefined,
        (err: unknown) => app.log.warn({ err }, 'missed-chat sweep failed; retried at the next turn'),
      )
      .finally(() => {
        running = null;
      });
  }, SWEEP_INTERVAL_MS);
  timer.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  };
};
