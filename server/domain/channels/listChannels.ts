/** Reading channels of the caller's account, each with its assigned agent ids (404 for any other account's). */
import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/database.js';
import type { Channel } from '../../db/schema.js';
import { notFound } from '../../errors/AppError.js';
import { applyPage, type Page } from '../../db/page.js';
import { assertAdmin, type Actor } from '../agents/actor.js';

export interface ChannelWithAgents {
  channel: Channel;
  /** Assigned agents; empty = every agent of the account. */
  agentIds: number[];
}

export async function listChannels(ctx: AppContext, input: { actor: Actor; page: Page }): Promise<ChannelWithAgents[]> {
  assertAdmin(input.actor);
  const q = ctx.db.selectFrom('channels').selectAll().where('account_id', '=', input.actor.account_id);
  const channels = await applyPage(q, input.page, 'id').execute();
  const byChannel = await assignedAgents(
    ctx.db,
    input.actor.account_id,
    channels.map((c) => c.id),
  );
  return channels.map((channel) => ({ channel, agentIds: byChannel.get(channel.id) ?? [] }));
}

export async function getChannel(ctx: AppContext, input: { actor: Actor; id: number }): Promise<ChannelWithAgents> {
  assertAdmin(input.actor);
  return findChannel(ctx.db, input.actor.account_id, input.id);
}

/** The channel of the account with its agents, or 404. */
export async function findChannel(db: Executor, accountId: number, id: number): Promise<ChannelWithAgents> {
  const channel = await db.selectFrom('channels').selectAll().where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
  if (!channel) throw notFound(`Channel ${id}`);
  const byChannel = await assignedAgents(db, accountId, [id]);
  return { channel, agentIds: byChannel.get(id) ?? [] };
}

async function assignedAgents(db: Executor, accountId: number, channelIds: number[]): Promise<Map<number, number[]>> {
  const map = new Map<number, number[]>();
  if (channelIds.length === 0) return map;
  const rows = await db
    .selectFrom('channel_agents')
    .select(['channel_id', 'agent_id'])
    .where('account_id', '=', accountId)
    .where('channel_id', 'in', channelIds)
    .orderBy('agent_id')
    .execute();
  for (const r of rows) map.set(r.channel_id, [...(map.get(r.channel_id) ?? []), r.agent_id]);
  return map;
}
