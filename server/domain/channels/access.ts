/**
 * Who works a channel. A channel's agents are those assigned to it; a channel
 * with no assigned agents belongs to every agent of its account. A channel is
 * available (status 1, widget online) when one of its active agents is online
 * and the account's working hours for chat are open at `now` (docs/ROUTING.md).
 */
import type { Executor } from '../../db/database.js';
import type { Agent } from '../../db/schema.js';
import { isOpenAt } from '../workingHours/hours.js';
import { accountHours } from '../workingHours/storedHours.js';

/** Ids of the active agents who receive the channel's chats. */
export async function channelAgentIds(db: Executor, accountId: number, channelId: number): Promise<number[]> {
  const assigned = await db
    .selectFrom('channel_agents')
    .innerJoin('agents', 'agents.id', 'channel_agents.agent_id')
    .select('agents.id')
    .where('channel_agents.channel_id', '=', channelId)
    .where('agents.active', '=', 1)
    .execute();
  const anyAssigned = await db.selectFrom('channel_agents').select('agent_id').where('channel_id', '=', channelId).limit(1).executeTakeFirst();
  if (anyAssigned) return assigned.map((r) => r.id);
  const all = await db.selectFrom('agents').select('id').where('account_id', '=', accountId).where('active', '=', 1).execute();
  return all.map((r) => r.id);
}

export async function isChannelAvailable(db: Executor, accountId: number, channelId: number, now: number): Promise<boolean> {
  if (!isOpenAt(await accountHours(db, accountId), now)) return false;
  const anyAssigned = await db.selectFrom('channel_agents').select('agent_id').where('channel_id', '=', channelId).limit(1).executeTakeFirst();
  let q = db
    .selectFrom('agents')
    .select('agents.id')
    .where('agents.account_id', '=', accountId)
    .where('agents.active', '=', 1)
    .where('agents.status', '=', 'online');
  if (anyAssigned) {
    q = q.where('agents.id', 'in', db.selectFrom('channel_agents').select('agent_id').where('channel_id', '=', channelId));
  }
  return (await q.limit(1).executeTakeFirst()) !== undefined;
}

/** Ids of the channels whose chats the agent sees: assigned to it, or assigned to nobody. */
export async function channelIdsVisibleTo(db: Executor, agent: Pick<Agent, 'id' | 'account_id'>): Promise<number[]> {
  const rows = await db
    .selectFrom('channels')
    .select('channels.id')
    .where('channels.account_id', '=', agent.account_id)
    .where((eb) =>
      eb.or([
        eb.exists(
          eb
            .selectFrom('channel_agents')
            .select('agent_id')
            .whereRef('channel_agents.channel_id', '=', 'channels.id')
            .where('channel_agents.agent_id', '=', agent.id),
        ),
        eb.not(eb.exists(eb.selectFrom('channel_agents').select('agent_id').whereRef('channel_agents.channel_id', '=', 'channels.id'))),
      ]),
    )
    .execute();
  return rows.map((r) => r.id);
}
