/**
 * The missed-chat mail: when an account sets `notifications.missed_chat_minutes`,
 * a chat still waiting (pending, no agent replied) that long is mailed to the
 * notification addresses, with what the visitor wrote, once: `chats.missed_at`
 * is set in the same transaction, by an UPDATE … WHERE missed_at IS NULL AND
 * status = 'pending', so of several instances sweeping only one writes it;
 * chat.updated (change missed) is recorded with it (the chat_missed event
 * webhook, when an admin switched that type on).
 * A worker sweeps every SWEEP_INTERVAL_MS; tests call sweepMissedChats directly
 * with a moved clock. A failed sweep is logged and retried on the next turn.
 */
import type { AppContext, Worker } from '../context.js';
import { recordChatState } from '../domain/chats/chatEvents.js';
import { commit } from '../events/outbox.js';
import { enqueueMail } from './enqueueMail.js';
import { notificationScope } from './recipients.js';
import { missedChatMail } from './templates/transcript.js';
import { loadTranscript } from './transcript.js';

export const SWEEP_INTERVAL_MS = 30_000;
const BATCH = 100;

/** Mails the chats that have waited past their account's limit; returns how many were mailed. */
export async function sweepMissedChats(ctx: AppContext): Promise<number> {
  const now = ctx.clock();
  const due = await ctx.db
    .selectFrom('chats')
    .innerJoin('settings', 'settings.account_id', 'chats.account_id')
    .select(['chats.id', 'chats.account_id', 'chats.created_at', 'settings.missed_chat_minutes'])
    .where('chats.status', '=', 'pending')
    .where('chats.missed_at', 'is', null)
    .where('settings.missed_chat_minutes', 'is not', null)
    .orderBy('chats.id')
    .limit(BATCH * 10)
    .execute();
  let mailed = 0;
  for (const chat of due) {
    if (mailed >= BATCH) break;
    const minutes = chat.missed_chat_minutes ?? 0;
    if (minutes <= 0 || chat.created_at + minutes * 60_000 > now) continue;
    const done = await commit(ctx.db, ctx.signals, async (tx) => {
      const claimed = await tx
        .updateTable('chats')
        .set({ missed_at: now })
        .where('id', '=', chat.id)
        .where('status', '=', 'pending')
        .where('missed_at', 'is', null)
        .returningAll()
        .executeTakeFirst();
      if (!claimed) return false;
      // Agents see it, and the event webhooks send chat_missed where that type is on.
      await recordChatState(tx, claimed, 'chat.updated', now, { change: 'missed' });
      const scope = await notificationScope(tx, ctx.config, chat.account_id);
      if (scope.recipients.length === 0) return true;
      const transcript = await loadTranscript(tx, { accountId: chat.account_id, chatId: chat.id, timezone: scope.timezone, withNotes: false });
      if (!transcript) return true;
      const content = missedChatMail(scope, ctx.config.publicUrl, transcript, minutes);
      for (const to of scope.recipients) {
        await enqueueMail(tx, ctx.config, { accountId: chat.account_id, type: 'missed_chat', to, chatId: chat.id, ...content }, now);
      }
      return true;
    });
    if (done) mailed++;
  }
  return mailed;
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
