/**
 * A person changes their own password (PUT /api/v1/me/password): the current
 * password must be given, and a wrong one counts as a failed sign-in of the
 * (address, e-mail) pair (throttles.ts), so a stolen session cannot be used to
 * guess it. The new password ends every OTHER session of the person: their
 * tokens are revoked in the same transaction as the change, and an
 * `agent.updated` event makes each open stream recheck its token, so the
 * streams of the other sessions close at once (4401), and every unused
 * password link of the person ends with it. The session that made
 * the change stays signed in. A one-time password (reset-admin) is changed
 * here too: the new one is the person's own (password_state `chosen`), which
 * lets the session do anything again.
 */
import type { AppContext } from '../../context.js';
import type { Agent } from '../../db/schema.js';
import { AppError } from '../../errors/AppError.js';
import { commit, recordEvent } from '../../events/outbox.js';
import { sha256 } from '../../lib/ids.js';
import { presentAgent } from '../../presenters/agent.js';
import { checkPassword } from '../agents/agentInput.js';
import { endPasswordLinks } from './passwordLinks.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { assertNotThrottled, clearPairThrottle, recordSignInFailure } from './throttles.js';

export interface ChangeOwnPasswordInput {
  agent: Pick<Agent, 'id' | 'account_id' | 'email'>;
  /** The token of the session making the change: it stays valid. */
  token: string;
  currentPassword: string;
  newPassword: string;
  ip: string;
}

export async function changeOwnPassword(ctx: AppContext, input: ChangeOwnPasswordInput): Promise<void> {
  const now = ctx.clock();
  const keys = { address: input.ip, email: input.agent.email };
  await assertNotThrottled(ctx.db, keys, now);
  const newPassword = checkPassword(input.newPassword);
  const row = await ctx.db.selectFrom('agents').select('password_hash').where('id', '=', input.agent.id).executeTakeFirstOrThrow();
  if (!(await verifyPassword(input.currentPassword, row.password_hash))) {
    await recordSignInFailure(ctx.db, { ...keys, accountId: input.agent.account_id }, now);
    throw new AppError('wrong_password');
  }
  const hash = await hashPassword(newPassword);
  await clearPairThrottle(ctx.db, keys, now);
  await commit(ctx.db, ctx.signals, async (tx) => {
    const updated = await tx
      .updateTable('agents')
      .set({ password_hash: hash, password_state: 'chosen', updated_at: now })
      .where('id', '=', input.agent.id)
      .where('account_id', '=', input.agent.account_id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await tx
      .updateTable('auth_tokens')
      .set({ revoked_at: now, expires_at: now })
      .where('agent_id', '=', input.agent.id)
      .where('revoked_at', 'is', null)
      .where('token_hash', '!=', sha256(input.token))
      .execute();
    await endPasswordLinks(tx, input.agent.id, now);
    await recordEvent(tx, { accountId: updated.account_id, type: 'agent.updated', data: { agent: presentAgent(updated) } }, now);
  });
}
