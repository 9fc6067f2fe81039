/**
 * The first sign-in of the first administrator with the password generated at
 * the first start (agents.password_state `generated`, printed once in the
 * log: accounts/bootstrapAccount.ts). Until it is done the session can do
 * nothing else (routes/authenticate.ts, as with a one-time password), and the
 * agent app shows one page (web/agent FirstRunPage) asking for the owner's
 * real e-mail, the company's name and their own password. POST /me/first-run
 * sets the three together, in one transaction: the e-mail at once (it is an
 * administrator's own), the name on the account (accountName.ts), the password
 * as the person's own (`chosen`); the generated password must be given again,
 * a wrong one counting as a failed sign-in (throttles.ts). Every other session
 * of the person ends, as with any change of password.
 */
import type { AppContext } from '../../context.js';
import type { Agent } from '../../db/schema.js';
import { AppError, invalid } from '../../errors/AppError.js';
import { commit, recordEvent } from '../../events/outbox.js';
import { sha256 } from '../../lib/ids.js';
import { presentAgent } from '../../presenters/agent.js';
import { cleanAccountName, storedAccountName } from '../accounts/accountName.js';
import { endPasswordLinks } from '../auth/passwordLinks.js';
import { hashPassword, verifyPassword } from '../auth/passwords.js';
import { assertNotThrottled, clearPairThrottle, recordSignInFailure } from '../auth/throttles.js';
import { checkPassword } from './agentInput.js';
import { checkNewEmail, setAgentEmail, withEmailTaken } from './emailChanges.js';

export interface FirstRunState {
  /** The session signed in with the generated password: the first-run page must be filled in before anything else. */
  required: boolean;
  email: string;
  /** The company's name so far ("" while not set). */
  account_name: string;
}

export async function firstRunState(ctx: AppContext, agent: Agent): Promise<FirstRunState> {
  return { required: agent.password_state === 'generated', email: agent.email, account_name: await storedAccountName(ctx.db, agent.account_id) };
}

export interface FirstRunInput {
  agent: Agent;
  /** The session's token: it stays signed in. */
  token: string;
  currentPassword: string;
  email: string;
  accountName: string;
  newPassword: string;
  ip: string;
}

export async function completeFirstRun(ctx: AppContext, input: FirstRunInput): Promise<Agent> {
  const { agent } = input;
  if (agent.password_state !== 'generated') {
    throw new AppError('conflict', 'The first sign-in is already done; change your e-mail and password on Profile, the company name in Admin → Settings.');
  }
  const now = ctx.clock();
  const keys = { address: input.ip, email: agent.email };
  await assertNotThrottled(ctx.db, keys, now);
  const email = await checkNewEmail(ctx.db, agent.id, input.email);
  const accountName = cleanAccountName(input.accountName);
  if (accountName === '') throw invalid('account_name must not be empty: the name of your company, as visitors and mails should show it.');
  const newPassword = checkPassword(input.newPassword);
  if (!(await verifyPassword(input.currentPassword, agent.password_hash))) {
    await recordSignInFailure(ctx.db, { ...keys, accountId: agent.account_id }, now);
    throw new AppError('wrong_password');
  }
  const hash = await hashPassword(newPassword);
  await clearPairThrottle(ctx.db, keys, now);
  return withEmailTaken(() =>
    commit(ctx.db, ctx.signals, async (tx) => {
      const current = await tx.selectFrom('agents').selectAll().where('id', '=', agent.id).executeTakeFirstOrThrow();
      // Of two racing submissions only the first sets anything.
      if (current.password_state !== 'generated') throw new AppError('conflict', 'The first sign-in is already done.');
      let updated = await tx
        .updateTable('agents')
        .set({ password_hash: hash, password_state: 'chosen', updated_at: now })
        .where('id', '=', agent.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      if (email !== updated.email) updated = await setAgentEmail(tx, updated, email, now);
      await tx.updateTable('accounts').set({ name: accountName }).where('id', '=', agent.account_id).execute();
      await tx
        .updateTable('auth_tokens')
        .set({ revoked_at: now, expires_at: now })
        .where('agent_id', '=', agent.id)
        .where('revoked_at', 'is', null)
        .where('token_hash', '!=', sha256(input.token))
        .execute();
      await endPasswordLinks(tx, agent.id, now);
      await recordEvent(tx, { accountId: agent.account_id, type: 'agent.updated', data: { agent: presentAgent(updated) } }, now);
      return updated;
    }),
  );
}
