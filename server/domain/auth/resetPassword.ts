/**
 * Password resets:
 * - forgotPassword: "Forgot password?" on the sign-in page. The caller always
 *   gets the same answer, sent before this runs (the route starts it once the
 *   answer is out, so its timing tells nothing); only an active agent with that address gets a mail
 *   (a 1-hour single-use link), at most RESET_MAILS_PER_HOUR per address
 *   (more requests are answered the same and send nothing).
 * - forcePasswordReset: an admin forces it for an agent of the account: the
 *   old password stops working at once, the agent's sessions end, and a
 *   reset link is mailed (kept on the Mail page when no SMTP_URL is set).
 * - setPasswordWithLink: the person behind a link chooses the new password;
 *   the link is used up, every session and every other link of theirs ends.
 *
 * A reset the person asks for ends only their earlier reset links, never an
 * invitation (anyone can type an address); an administrator's ends all.
 */
import type { AppContext } from '../../context.js';
import { AppError, notFound } from '../../errors/AppError.js';
import { commit, recordEvent } from '../../events/outbox.js';
import { presentAgent } from '../../presenters/agent.js';
import { assertAdmin, type Actor } from '../agents/actor.js';
import { checkPassword } from '../agents/agentInput.js';
import type { LinkSent } from '../agents/inviteAgent.js';
import { mailPasswordLink } from './mailPasswordLink.js';
import { consumePasswordLink, endPasswordLinks, openPasswordLink, type LinkKind } from './passwordLinks.js';
import { hashPassword, NO_PASSWORD } from './passwords.js';
import { revokeAgentTokens } from './tokens.js';

export const RESET_MAILS_PER_HOUR = 3;
const HOUR = 3600 * 1000;

export async function forgotPassword(ctx: AppContext, input: { email: string }): Promise<void> {
  const email = input.email.trim().toLowerCase();
  const now = ctx.clock();
  await commit(ctx.db, ctx.signals, async (tx) => {
    // The agent's row locked (PostgreSQL; SQLite has one writer): requests for one address, answered before
    // this runs and so running side by side, count its recent links one after the other.
    const agent = await tx
      .selectFrom('agents')
      .selectAll()
      .where('email', '=', email)
      .where('active', '=', 1)
      .$if(ctx.store.dialect === 'postgres', (q) => q.forUpdate())
      .executeTakeFirst();
    if (!agent) return;
    const recent = await tx
      .selectFrom('password_links')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('agent_id', '=', agent.id)
      .where('kind', '=', 'reset')
      .where('created_at', '>', now - HOUR)
      .executeTakeFirst();
    if (Number(recent?.n ?? 0) >= RESET_MAILS_PER_HOUR) return;
    // Earlier reset links only: whoever typed the address must not cancel an invitation (#31 item 5).
    await mailPasswordLink(tx, ctx, { agent, kind: 'reset', by: null, now, replaces: 'resets' });
  });
}

export async function forcePasswordReset(ctx: AppContext, input: { actor: Actor; id: number }): Promise<LinkSent> {
  assertAdmin(input.actor);
  const now = ctx.clock();
  return commit(ctx.db, ctx.signals, async (tx) => {
    const agent = await tx.selectFrom('agents').selectAll().where('id', '=', input.id).where('account_id', '=', input.actor.account_id).executeTakeFirst();
    if (!agent || agent.active !== 1) throw notFound(`Agent ${input.id}`);
    if (agent.id === input.actor.id) throw new AppError('conflict', 'You cannot force a reset of your own password; change it on your Profile page.');
    const by = await tx.selectFrom('agents').select('name').where('id', '=', input.actor.id).executeTakeFirst();
    await tx.updateTable('agents').set({ password_hash: NO_PASSWORD, password_state: 'chosen', updated_at: now }).where('id', '=', agent.id).execute();
    await revokeAgentTokens(tx, agent.id, now);
    const { expiresAt } = await mailPasswordLink(tx, ctx, {
      agent: { ...agent, password_hash: NO_PASSWORD },
      kind: 'reset',
      by: by?.name ?? 'An administrator',
      now,
      replaces: 'all',
    });
    return { sent_to: agent.email, expires_at: expiresAt };
  });
}

/** What the link page shows before the password is chosen. */
export async function readPasswordLink(
  ctx: AppContext,
  { token }: { token: unknown },
): Promise<{ kind: LinkKind; name: string; email: string; expires_at: number }> {
  const link = await openPasswordLink(ctx.db, token, ctx.clock());
  return { kind: link.kind, name: link.agent.name, email: link.agent.email, expires_at: link.expires_at };
}

export async function setPasswordWithLink(ctx: AppContext, input: { token: unknown; password: string }): Promise<void> {
  const password = checkPassword(input.password);
  const now = ctx.clock();
  // Checked before hashing (a bad link answers at once), and again inside the transaction.
  await openPasswordLink(ctx.db, input.token, now);
  const hash = await hashPassword(password);
  await commit(ctx.db, ctx.signals, async (tx) => {
    const link = await openPasswordLink(tx, input.token, now);
    if (!(await consumePasswordLink(tx, link.id, now))) throw new AppError('link_invalid');
    const updated = await tx
      .updateTable('agents')
      .set({ password_hash: hash, password_state: 'chosen', updated_at: now })
      .where('id', '=', link.agent.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await revokeAgentTokens(tx, link.agent.id, now);
    await endPasswordLinks(tx, link.agent.id, now);
    await recordEvent(tx, { accountId: updated.account_id, type: 'agent.updated', data: { agent: presentAgent(updated) } }, now);
  });
}
