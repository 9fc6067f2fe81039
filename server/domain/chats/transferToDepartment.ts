/**
 * An agent hands a chat to a department rather than to one agent (#21): the
 * chat takes the department and waits again (pending, no agent holding it),
 * so the department's agents — or whoever presses Reply — take it up; the
 * agents who were in it stay in agent_ids. A system message ("Transferred
 * from A to the Sales department") and chat.updated (change 'transferred') in
 * the same transaction. Who may transfer is transferChat's rule; the
 * department must be the account's (400), and a chat already waiting in that
 * department is refused (400). Conditional on the state read, like transferChat.
 */
import type { AppContext } from '../../context.js';
import type { Agent, Chat } from '../../db/schema.js';
import { AppError, invalid } from '../../errors/AppError.js';
import { commit } from '../../events/outbox.js';
import { insertMessage } from '../messages/insertMessage.js';
import { startRouting, stopRouting } from '../routing/offerChat.js';
import { recordChatState, recordMessageCreated } from './chatEvents.js';
import { loadChatFor } from './loadChat.js';
import { agentName, assertMayTransfer, systemText } from './transferChat.js';

export async function transferToDepartment(ctx: AppContext, input: { actor: Agent; chatId: number; departmentId: number }): Promise<Chat> {
  const { actor } = input;
  const loaded = await loadChatFor(ctx.db, actor, input.chatId);
  const now = ctx.clock();
  return commit(ctx.db, ctx.signals, async (tx) => {
    const chat = await tx.selectFrom('chats').selectAll().where('id', '=', loaded.id).executeTakeFirstOrThrow();
    assertMayTransfer(chat, actor);
    const department = await tx
      .selectFrom('departments')
      .select(['id', 'name'])
      .where('id', '=', input.departmentId)
      .where('account_id', '=', chat.account_id)
      .executeTakeFirst();
    if (!department) throw invalid(`department_id must name a department of this account; ${input.departmentId} is not one.`);
    if (chat.status === 'pending' && chat.department_id === department.id) throw invalid(`The chat is already waiting in ${department.name}.`);
    const from = await agentName(tx, chat.accepted_by, actor);
    const updated = await tx
      .updateTable('chats')
      .set({ status: 'pending', accepted_by: null, department_id: department.id, updated_at: now })
      .where('id', '=', chat.id)
      .where('status', '=', chat.status)
      .where('accepted_by', chat.accepted_by === null ? 'is' : '=', chat.accepted_by)
      .returningAll()
      .executeTakeFirst();
    if (!updated) throw new AppError('conflict', 'The chat changed while it was being transferred (another agent took or moved it); look at it again.');
    await recordChatState(tx, updated, 'chat.updated', now, { change: 'transferred', agent_id: actor.id });
    const message = await insertMessage(tx, {
      chat: updated,
      author: 'system',
      message: systemText(`Transferred from ${from} to the ${department.name} department`),
      now,
    });
    await recordMessageCreated(tx, updated, message, now);
    // Routed anew: the department's agents first (docs/ROUTING.md), when its mode offers chats.
    await stopRouting(tx, updated.id);
    await startRouting(tx, updated, now);
    return updated;
  });
}
