/**
 * Assignment modes (#21, docs/ROUTING.md): the account's routing settings
 * (`routing_settings`, one row per account once an admin saves them; no row =
 * manual, today's queue), a department's own mode (`departments.routing_mode`,
 * null = the account's), an agent's concurrent-chat limit (`agents.max_chats`,
 * null = none) and when it was last offered a chat (round robin's order).
 *
 * `chat_offers` holds the chats being routed, one row per pending chat: the
 * agent it is offered to (null: nobody eligible now), the attempt number, when
 * the offer runs out (`expires_at`, the routing worker's scan) and when the
 * chat goes from its department to everyone (`everyone_at`, null = never).
 * The row is durable, so an offer outlives the instance that made it; each
 * move is a compare-and-set on `attempt`.
 */
import { sql } from 'kysely';
import type { ColumnKinds } from '../columns.js';
import type { AnyDb } from './anyDb.js';

export async function up(db: AnyDb, k: ColumnKinds): Promise<void> {
  await db.schema
    .createTable('routing_settings')
    .addColumn('account_id', 'integer', (c) => c.primaryKey())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('offer_timeout_seconds', 'integer', (c) => c.notNull())
    .addColumn('everyone_after_seconds', 'integer')
    .addColumn('updated_at', k.time, (c) => c.notNull())
    .execute();
  await db.schema.alterTable('departments').addColumn('routing_mode', 'text').execute();
  await db.schema.alterTable('agents').addColumn('max_chats', 'integer').execute();
  await db.schema.alterTable('agents').addColumn('last_offered_at', k.time).execute();
  await db.schema
    .createTable('chat_offers')
    .addColumn('chat_id', 'integer', (c) => c.primaryKey())
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('department_id', 'integer')
    .addColumn('agent_id', 'integer')
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('expires_at', k.time, (c) => c.notNull())
    .addColumn('everyone_at', k.time)
    .addColumn('tried_json', 'text', (c) => c.notNull())
    .addColumn('created_at', k.time, (c) => c.notNull())
    .execute();
  // The worker's scan: the offers that ran out, soonest first.
  await db.schema.createIndex('chat_offers_due').on('chat_offers').column('expires_at').execute();
  // An agent's outstanding offers (its load, and its limit).
  await db.schema.createIndex('chat_offers_agent').on('chat_offers').column('agent_id').where(sql.ref('agent_id'), 'is not', null).execute();
  // An agent's active chats (its load, and its limit).
  await db.schema.createIndex('chats_agent_active').on('chats').column('accepted_by').where(sql.ref('status'), '=', sql.lit('active')).execute();
}
