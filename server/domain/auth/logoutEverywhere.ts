/**
 * "Sign out everywhere" (POST /api/v1/auth/logout-all): revokes every token of
 * the person, the one of the request included, ends every unused password
 * link of theirs (reset or invitation), stops Web Push to every device of
 * theirs (a lost phone is notified no more), and records an
 * `agent.updated` event so each open stream rechecks its token and closes
 * (4401) at once, on every instance.
 */
import type { AppContext } from '../../context.js';
import type { Agent } from '../../db/schema.js';
import { commit } from '../../events/outbox.js';
import { recordSignedOut } from './logout.js';
import { endPasswordLinks } from './passwordLinks.js';
import { revokeAgentTokens } from './tokens.js';

export async function logoutEverywhere(ctx: AppContext, input: { agent: Pick<Agent, 'id' | 'account_id'> }): Promise<void> {
  const now = ctx.clock();
  await commit(ctx.db, ctx.signals, async (tx) => {
    await revokeAgentTokens(tx, input.agent.id, now);
    // A reset link or invitation still in a mailbox would be a way back in: it ends too.
    await endPasswordLinks(tx, input.agent.id, now);
    // A lost phone would go on showing visitors' messages: every device of theirs stops being notified.
    await tx.deleteFrom('push_subscriptions').where('agent_id', '=', input.agent.id).execute();
    await recordSignedOut(tx, input.agent, now);
  });
}
