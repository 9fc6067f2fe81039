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
import { invalid } from '../../errors/AppError.js';
import { startRouting, stopRouting } from '../routing/offerChat.js';
import { transferWith } from './transferChat.js';

export async function transferToDepartment(ctx: AppContext, input: { actor: Agent; chatId: number; departmentId: number }): Promise<Chat> {
  return transferWith(
    ctx,
    input,
    async (tx, chat) => {
      const department = await tx
        .selectFrom('departments')
        .select(['id', 'name'])
        .where('id', '=', input.departmentId)
        .where('account_id', '=', chat.account_id)
        .executeTakeFirst();
      if (!department) throw invalid(`department_id must name a department of this account; ${input.departmentId} is not one.`);
      if (chat.status === 'pending' && chat.department_id === department.id) throw invalid(`The chat is already waiting in ${department.name}.`);
      return { set: { status: 'pending', accepted_by: null, department_id: department.id }, to: `the ${department.name} department` };
    },
    async (tx, updated, now) => {
      // Routed anew: the department's agents first (docs/ROUTING.md), when its mode offers chats.
      await stopRouting(tx, updated.id);
      await startRouting(tx, updated, now);
    },
  );
}
