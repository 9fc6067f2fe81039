/**
 * An admin changes an agent of its account: name, e-mail (at once, unique:
 * 409 email_taken; emailChanges.ts), role, phone, password, its
 * departments (`department_ids`, replacing the earlier ones), or
 * `active:false` to deactivate it. Deactivation revokes the agent's tokens and
 * sets it offline; a new password set by someone else also revokes its tokens.
 * A new password, a new e-mail, a deactivation and a reactivation end the
 * agent's unused password links (invitation, reset); a new e-mail also ends
 * the agent's own waiting change of address.
 * The account always keeps one active administrator: demoting or deactivating
 * the last one is 409 conflict.
 */
import type { Updateable } from 'kysely';
import type { AppContext } from '../../context.js';
import type { Tx } from '../../db/database.js';
import type { Agent, AgentsTable } from '../../db/schema.js';
import { AppError, notFound } from '../../errors/AppError.js';
import { commit, recordEvent } from '../../events/outbox.js';
import { presentAgent } from '../../presenters/agent.js';
import { hashPassword } from '../auth/passwords.js';
import { endPasswordLinks } from '../auth/passwordLinks.js';
import { revokeAgentTokens } from '../auth/tokens.js';
import { assertAdmin, type Actor } from './actor.js';
import { checkDepartmentIds, setAgentDepartments, withDepartments, type AgentWithDepartments } from './agentDepartments.js';
import { checkPassword, cleanName, cleanPhone } from './agentInput.js';
import { checkNewEmail, withEmailTaken } from './emailChanges.js';

export interface AgentChanges {
  name?: string;
  email?: string;
  role?: Agent['role'];
  phone?: string | null;
  password?: string;
  active?: boolean;
  department_ids?: number[];
}

export async function updateAgent(ctx: AppContext, input: { actor: Actor; id: number; changes: AgentChanges }): Promise<AgentWithDepartments> {
  const { actor, id, changes } = input;
  assertAdmin(actor);
  const set: Updateable<AgentsTable> = {};
  if (changes.name !== undefined) set.name = cleanName(changes.name);
  if (changes.phone !== undefined) set.phone = cleanPhone(changes.phone);
  if (changes.role !== undefined) set.role = changes.role;
  if (changes.password !== undefined) {
    set.password_hash = await hashPassword(checkPassword(changes.password));
    set.password_state = 'chosen';
  }
  if (changes.active !== undefined) set.active = changes.active ? 1 : 0;
  const email = changes.email === undefined ? undefined : await checkNewEmail(ctx.db, id, changes.email);
  const now = ctx.clock();

  return withEmailTaken(() =>
    commit(ctx.db, ctx.signals, async (tx) => {
      const target = await tx.selectFrom('agents').selectAll().where('id', '=', id).where('account_id', '=', actor.account_id).executeTakeFirst();
      if (!target) throw notFound(`Agent ${id}`);
      const deactivating = target.active === 1 && changes.active === false;
      const demoting = target.role === 'admin' && changes.role !== undefined && changes.role !== 'admin';
      if (target.role === 'admin' && target.active === 1 && (deactivating || demoting)) {
        await assertAnotherActiveAdmin(ctx, tx, target);
      }
      if (deactivating) set.status = 'offline';
      const newEmail = email !== undefined && email !== target.email;
      if (newEmail) set.email = email;
      if (changes.department_ids !== undefined) {
        await setAgentDepartments(tx, actor.account_id, id, await checkDepartmentIds(tx, actor.account_id, changes.department_ids));
      }
      const updated = await tx
        .updateTable('agents')
        .set({ ...set, updated_at: now })
        .where('id', '=', id)
        .where('account_id', '=', actor.account_id)
        .returningAll()
        .executeTakeFirstOrThrow();
      if (deactivating || (set.password_hash !== undefined && target.id !== actor.id)) {
        await revokeAgentTokens(tx, target.id, now);
      }
      // A new password, a deactivation or a reactivation ends every outstanding link: none outlives it.
      if (set.password_hash !== undefined || newEmail || (changes.active !== undefined && (changes.active ? 1 : 0) !== target.active)) {
        await endPasswordLinks(tx, target.id, now);
      }
      if (newEmail) await tx.updateTable('email_changes').set({ used_at: now }).where('agent_id', '=', target.id).where('used_at', 'is', null).execute();
      const [shown] = await withDepartments(tx, [updated]);
      await recordEvent(tx, { accountId: actor.account_id, type: 'agent.updated', data: { agent: presentAgent(shown) } }, now);
      return shown;
    }),
  );
}

async function assertAnotherActiveAdmin(ctx: AppContext, tx: Tx, target: Agent): Promise<void> {
  // On PostgreSQL, lock the account's admins so two admins cannot demote each other at once.
  const others = await tx
    .selectFrom('agents')
    .select('id')
    .where('account_id', '=', target.account_id)
    .where('role', '=', 'admin')
    .where('active', '=', 1)
    .$if(ctx.store.dialect === 'postgres', (q) => q.forUpdate())
    .execute();
  if (!others.some((a) => a.id !== target.id)) {
    throw new AppError(
      'conflict',
      `${target.email} is the last active administrator of this account; make another agent an administrator before demoting or deactivating it.`,
    );
  }
}
