/**
 * The assignment step: one indexed statement picks the agent to offer a chat
 * to among those who are Online, active, work the chat's channel (its
 * channel-level agents, or everyone when it has none), belong to the
 * department when the department's turn is on, were not offered it in this
 * round, and hold fewer chats than their limit, and stamps the chosen agent's
 * last_offered_at (round robin's order: now, or just after the account's
 * latest stamp when that is later) in the same statement. A chat held is
 * an active chat the agent accepted (index chats_agent_active) or an offer
 * outstanding to it (index chat_offers_agent). Round robin takes the agent
 * offered a chat least recently; least busy the one holding the fewest, then
 * the least recent. On PostgreSQL the agent row is locked (SKIP LOCKED), so
 * two transactions offering at the same moment pick two agents rather than
 * queueing on one, and the stamp is theirs alone; the lock is FOR NO KEY
 * UPDATE, the one the stamp takes anyway, so it never blocks a foreign-key
 * check on the agent (a message or chat naming them).
 *
 * One statement rather than a select and an update: on PostgreSQL each is a
 * round trip, and the stamp needs nothing the pick does not already have.
 */
import { sql } from 'kysely';
import { isPostgres, type Tx } from '../../db/database.js';
import type { OfferingMode } from './modes.js';

export interface PickInput {
  accountId: number;
  channelId: number;
  /** The department whose agents only are eligible; null = everyone. */
  departmentId: number | null;
  mode: OfferingMode;
  /** Agents not to offer it to (offered already in this round). */
  exclude: number[];
  /** Stamped as the chosen agent's last_offered_at (or just after the account's latest stamp, when that is later). */
  now: number;
  /**
   * Agents picked earlier in this transaction for chats whose offers are not
   * written yet (routing/firstOffers.ts): each occurrence counts as a chat the
   * agent holds, as its chat_offers row will.
   */
  pending?: number[];
}

export async function pickAgent(tx: Tx, p: PickInput): Promise<number | null> {
  const held = sql`((select count(*) from chats c where c.accepted_by = a.id and c.status = 'active') + (select count(*) from chat_offers o where o.agent_id = a.id)${pendingCount(tx, p.pending)})`;
  const department =
    p.departmentId === null ? sql`` : sql`and exists (select 1 from agent_departments d where d.agent_id = a.id and d.department_id = ${p.departmentId})`;
  const exclude = p.exclude.length === 0 ? sql`` : sql`and a.id not in (${sql.join(p.exclude)})`;
  const order = p.mode === 'least_busy' ? sql`${held} asc, coalesce(a.last_offered_at, 0) asc, a.id asc` : sql`coalesce(a.last_offered_at, 0) asc, a.id asc`;
  const lock = isPostgres(tx) ? sql`for no key update of a skip locked` : sql``;
  // Round robin's order is the order of the stamps, so a stamp never goes below one already
  // given in the account: a batch writes its new chats after chats that came later
  // (chatChannel/storeInboundBatch.ts), and instances' clocks differ.
  const latest = sql`(select coalesce(max(s.last_offered_at), 0) + 1 from agents s where s.account_id = ${p.accountId})`;
  const stamp = isPostgres(tx) ? sql`greatest(${p.now}, ${latest})` : sql`max(${p.now}, ${latest})`;
  // The channel test: "the channel has no agents of its own" first, a constant the store
  // computes once per statement, so the per-agent lookup runs only for channels with a list.
  const result = await sql<{ id: number }>`
    update agents set last_offered_at = ${stamp}
    where id = (
      select a.id from agents a
      where a.account_id = ${p.accountId} and a.status = 'online' and a.active = 1
        and (not exists (select 1 from channel_agents ca where ca.channel_id = ${p.channelId})
             or exists (select 1 from channel_agents ca where ca.channel_id = ${p.channelId} and ca.agent_id = a.id))
        ${department} ${exclude}
        and (a.max_chats is null or ${held} < a.max_chats)
      order by ${order}
      limit 1 ${lock})
    returning id`.execute(tx);
  return result.rows[0]?.id ?? null;
}

/** The pending offers of agent `a` (PickInput.pending), as a term added to its chats held. */
function pendingCount(tx: Tx, pending: number[] | undefined) {
  if (!pending || pending.length === 0) return sql``;
  return isPostgres(tx)
    ? sql` + (select count(*) from unnest(cast(${pending} as integer[])) as p(id) where p.id = a.id)`
    : sql` + (select count(*) from json_each(${JSON.stringify(pending)}) p where p.value = a.id)`;
}
