/**
 * What a missed chat is: the one rule the reports' "missed", the `chat_missed`
 * event webhook and the missed-chat mail share (docs/EVENTS.md, docs/REPORTS.md).
 *
 * A chat is **missed** when its visitor wrote and no agent answered: no agent
 * wrote to the visitor (private notes do not count, nor pressing Reply alone)
 * before the chat was finished, or, when the account set
 * `notifications.missed_chat_minutes`, within that many minutes of its start,
 * whichever comes first. That moment is `chats.missed_at`, written once,
 * with `chat.updated` (change `missed`) in the same transaction: the event
 * webhooks send it as `chat_missed`, the mail subscriber mails it, and the
 * reports count every chat with `missed_at` (in the bucket it started). An
 * answer after that moment does not take it back.
 */
import type { Tx } from '../../db/database.js';
import type { Chat } from '../../db/schema.js';
import { recordChatState } from './chatEvents.js';

/** An agent has written to the visitor (chats.first_response_at). */
export function isAnswered(chat: Pick<Chat, 'first_response_at'>): boolean {
  return chat.first_response_at !== null;
}

/** The reports' missed, the chats chat_missed was recorded for. */
export function isMissed(chat: Pick<Chat, 'missed_at'>): boolean {
  return chat.missed_at !== null;
}

/** Whether finishing the chat now makes it missed (it is not finished yet, nor missed, nor answered). */
export function missesOnFinish(chat: Pick<Chat, 'status' | 'missed_at' | 'first_response_at'>): boolean {
  return chat.status !== 'finished' && !isMissed(chat) && !isAnswered(chat);
}

/** When the account's limit makes an open, unanswered chat missed (epoch ms); null without a limit. */
export function missesAt(chat: Pick<Chat, 'created_at'>, missedChatMinutes: number | null): number | null {
  return missedChatMinutes === null || missedChatMinutes <= 0 ? null : chat.created_at + missedChatMinutes * 60_000;
}

/** How long a missed chat waited for an answer, in whole minutes (chat_missed's `waited_minutes`, the mail's subject). */
export function waitedMinutes(chat: Pick<Chat, 'created_at' | 'missed_at'>, fallback: number): number {
  return Math.max(0, Math.floor(((chat.missed_at ?? fallback) - chat.created_at) / 60_000));
}

/**
 * Marks an open, unanswered chat missed now (its limit passed), once: a
 * conditional UPDATE, so of several instances sweeping only one writes it, and
 * an answer or a finish committed first wins. Records chat.updated (change
 * missed). The chat as it is now, or null when it was not (any more) to mark.
 */
export async function markMissed(tx: Tx, chatId: number, now: number): Promise<Chat | null> {
  const marked = await tx
    .updateTable('chats')
    .set({ missed_at: now })
    .where('id', '=', chatId)
    .where('status', '<>', 'finished')
    .where('missed_at', 'is', null)
    .where('first_response_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
  if (!marked) return null;
  await recordMissed(tx, marked, now);
  return marked;
}

/** chat.updated (change missed) of a chat whose missed_at was just written (markMissed, or a finish). */
export async function recordMissed(tx: Tx, chat: Chat, now: number): Promise<void> {
  await recordChatState(tx, chat, 'chat.updated', now, { change: 'missed' });
}
