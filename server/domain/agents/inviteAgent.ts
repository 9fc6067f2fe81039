/**
 * An admin (re)sends an agent's invitation: a new single-use link (72 h) to
 * set their own password, mailed to the agent; earlier links stop working.
 * No admin ever types another person's password.
 */
import type { AppContext } from '../../context.js';
import { notFound } from '../../errors/AppError.js';
import { commit } from '../../events/outbox.js';
import { mailPasswordLink } from '../auth/mailPasswordLink.js';
import { assertAdmin, type Actor } from './actor.js';

export interface LinkSent {
  sent_to: string;
  expires_at: number;
}

export async function inviteAgent(ctx: AppContext, input: { actor: Actor; id: number }): Promise<LinkSent> {
  assertAdmin(input.actor);
  const now = ctx.clock();
  return commit(ctx.db, ctx.signals, async (tx) => {
    const agent = await tx.selectFrom('agents').selectAll().where('id', '=', input.id).where('account_id', '=', input.actor.account_id).executeTakeFirst();
    if (!agent || agent.active !== 1) throw notFound(`Agent ${input.id}`);
    const by = await tx.selectFrom('agents').select(['name', 'language']).where('id', '=', input.actor.id).executeTakeFirst();
    const { expiresAt } = await mailPasswordLink(tx, ctx, { agent, kind: 'invite', by: by?.name ?? null, byLanguage: by?.language, now, replaces: 'all' });
    return { sent_to: agent.email, expires_at: expiresAt };
  });
}
