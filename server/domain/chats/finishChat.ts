/**
 * An agent closes a chat, optionally blacklisting the visitor (whose later
 * messages are stored but never reach agents). Finishing again is harmless and
 * may still add the blacklist. A chat another agent holds is theirs to finish
 * or blacklist (chatRights.ts), an administrator's too. Finishing a chat no
 * agent answered makes it missed (missedChat.ts): `missed_at` and chat.updated
 * (change missed) before the one of the finish.
 */
import type { AppContext } from '../../context.js';
import { isPostgres } from '../../db/database.js';
import type { Agent, Chat } from '../../db/schema.js';
import { commit } from '../../events/outbox.js';
import { recordChatState } from './chatEvents.js';
import { assertMayActOnChat } from './chatRights.js';
import { loadChatFor } from './loadChat.js';
import { missesOnFinish, recordMissed } from './missedChat.js';

export async function finishChat(ctx: AppContext, input: { actor: Agent; chatId: number; blacklist?: boolean }): Promise<Chat> {
  const loaded = await loadChatFor(ctx.db, input.actor, input.chatId);
  const now = ctx.clock();
  return commit(ctx.db, ctx.signals, async (tx) => {
    // Locked on PostgreSQL: an answer or the missed-chat sweep committed meanwhile is seen before deciding.
    const chat = await tx
      .selectFrom('chats')
      .selectAll()
      .where('id', '=', loaded.id)
      .$if(isPostgres(tx), (q) => q.forUpdate())
      .executeTakeFirstOrThrow();
    const blacklist = input.blacklist === true;
    assertMayActOnChat(input.actor, chat, blacklist ? 'blacklist' : 'finish');
    if (chat.status === 'finished' && (!blacklist || chat.blacklisted === 1)) return chat;
    if (blacklist) await tx.updateTable('visitors').set({ blacklisted: 1, updated_at: now }).where('id', '=', chat.visitor_id).execute();
    const updated = await tx
      .updateTable('chats')
      .set({
        status: 'finished',
        finished_at: chat.finished_at ?? now,
        blacklisted: blacklist ? 1 : chat.blacklisted,
        updated_at: now,
        missed_at: missesOnFinish(chat) ? now : chat.missed_at,
      })
      .where('id', '=', chat.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    if (missesOnFinish(chat)) await recordMissed(tx, updated, now);
    await recordChatState(tx, updated, 'chat.updated', now, { change: 'finished', agent_id: input.actor.id });
    return updated;
  });
}
