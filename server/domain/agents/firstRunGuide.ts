/**
 * The first-run guide of an admin on a new install (GET /me/guide): what to do
 * next, each step derived from the account's state, so it is ticked whoever
 * did it and wherever: `channel` (a widget or chat channel exists),
 * `snippet` (a visitor has come through one: the widget snippet is on a site,
 * or a customer system sent a message), `online` (this agent is Online, or
 * has been: going Offline later does not bring a finished guide back).
 * `show` is false once every step is done, once the agent dismissed the guide
 * (POST /me/guide/dismiss, remembered per agent), and for non-admins (they
 * cannot add channels). The route presents it (presenters/guide.ts).
 */
import type { AppContext } from '../../context.js';
import type { Agent } from '../../db/schema.js';

/** Each step's state, in the guide's order, and whether the guide shows. */
export interface FirstRunGuide {
  steps: { channel: boolean; snippet: boolean; online: boolean };
  done: boolean;
  dismissed: boolean;
  show: boolean;
}

export async function firstRunGuide(ctx: AppContext, input: { agent: Agent }): Promise<FirstRunGuide> {
  const { agent } = input;
  const [me, channel, visitor, wasOnline] = await Promise.all([
    ctx.db
      .selectFrom('agents')
      .select(['status', 'guide_dismissed_at'])
      .where('id', '=', agent.id)
      .where('account_id', '=', agent.account_id)
      .executeTakeFirstOrThrow(),
    ctx.db.selectFrom('channels').select('id').where('account_id', '=', agent.account_id).limit(1).executeTakeFirst(),
    ctx.db.selectFrom('visitors').select('id').where('account_id', '=', agent.account_id).limit(1).executeTakeFirst(),
    ctx.db
      .selectFrom('agent_status_changes')
      .select('id')
      .where('agent_id', '=', agent.id)
      .where('account_id', '=', agent.account_id)
      .where('status', '=', 'online')
      .limit(1)
      .executeTakeFirst(),
  ]);
  const steps = { channel: channel !== undefined, snippet: visitor !== undefined, online: me.status === 'online' || wasOnline !== undefined };
  const done = steps.channel && steps.snippet && steps.online;
  const dismissed = me.guide_dismissed_at !== null;
  return { steps, done, dismissed, show: agent.role === 'admin' && !done && !dismissed };
}

/** The agent hides the guide for good (its own choice; other admins still see theirs). */
export async function dismissGuide(ctx: AppContext, input: { agent: Agent }): Promise<void> {
  await ctx.db
    .updateTable('agents')
    .set({ guide_dismissed_at: ctx.clock() })
    .where('id', '=', input.agent.id)
    .where('account_id', '=', input.agent.account_id)
    .where('guide_dismissed_at', 'is', null)
    .execute();
}
