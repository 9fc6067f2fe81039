/**
 * Web Push (#37, server/push/): the deployment's VAPID key pair (one row,
 * made at first start and shared by every instance, so it is in every
 * backup), the agents' push subscriptions (one per browser that said "Notify
 * me on this device"; the endpoint is the push service's URL for it) and the
 * agent-app tabs that say whether they are visible, so nothing is pushed to
 * an agent whose open tab already shows it.
 */
import { idColumn, timeColumn, type ColumnKinds } from '../columns.js';
import type { AnyDb } from './anyDb.js';

export async function up(db: AnyDb, k: ColumnKinds): Promise<void> {
  await db.schema
    .createTable('web_push_keys')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('private_key', 'text', (c) => c.notNull())
    .addColumn('created_at', k.time, timeColumn)
    .execute();
  await db.schema
    .createTable('push_subscriptions')
    .addColumn('id', k.id, idColumn(k))
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('agent_id', 'integer', (c) => c.notNull().references('agents.id').onDelete('cascade'))
    .addColumn('endpoint', 'text', (c) => c.notNull().unique())
    .addColumn('p256dh', 'text', (c) => c.notNull())
    .addColumn('auth', 'text', (c) => c.notNull())
    .addColumn('user_agent', 'text')
    .addColumn('created_at', k.time, timeColumn)
    .addColumn('last_pushed_at', k.time)
    .execute();
  await db.schema.createIndex('push_subscriptions_agent').on('push_subscriptions').column('agent_id').execute();
  await db.schema
    .createTable('agent_tabs')
    .addColumn('agent_id', 'integer', (c) => c.notNull().references('agents.id').onDelete('cascade'))
    .addColumn('tab_id', 'text', (c) => c.notNull())
    .addColumn('visible', 'integer', (c) => c.notNull())
    .addColumn('updated_at', k.time, timeColumn)
    .addPrimaryKeyConstraint('agent_tabs_pk', ['agent_id', 'tab_id'])
    .execute();
}
