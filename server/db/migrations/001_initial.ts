/**
 * Initial data model: every table the spec needs, scoped by account.
 * Written once for both dialects through the helpers in ../columns.ts.
 */
import { idColumn, timeColumn, type ColumnKinds } from '../columns.js';
import type { AnyDb } from './anyDb.js';
import { inboundDedupKey } from './frozenParts.js';

export async function up(db: AnyDb, k: ColumnKinds): Promise<void> {
  await db.schema
    .createTable('accounts')
    .addColumn('id', k.id, idColumn(k))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('next_visitor_number', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', k.time, timeColumn)
    .execute();

  await db.schema
    .createTable('agents')
    .addColumn('id', k.id, idColumn(k))
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('phone', 'text')
    .addColumn('photo_url', 'text')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('offline'))
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', k.time, timeColumn)
    .addColumn('updated_at', k.time, timeColumn)
    .execute();
  await db.schema.createIndex('agents_account').on('agents').column('account_id').execute();

  await db.schema
    .createTable('auth_tokens')
    .addColumn('id', k.id, idColumn(k))
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('agent_id', 'integer', (c) => c.notNull().references('agents.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', k.time, timeColumn)
    .addColumn('expires_at', k.time, timeColumn)
    .addColumn('revoked_at', k.time)
    .execute();

  await db.schema
    .createTable('login_attempts')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('window_started_at', k.time, timeColumn)
    .addColumn('locked_until', k.time)
    .execute();

  await db.schema
    .createTable('departments')
    .addColumn('id', k.id, idColumn(k))
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', k.time, timeColumn)
    .execute();

  await db.schema
    .createTable('channels')
    .addColumn('id', k.id, idColumn(k))
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('public_id', 'text', (c) => c.notNull().unique())
    .addColumn('secret', 'text')
    .addColumn('webhook_url', 'text')
    .addColumn('chunked', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('options_json', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', k.time, timeColumn)
    .addColumn('updated_at', k.time, timeColumn)
    .execute();
  await db.schema.createIndex('channels_account').on('channels').column('account_id').execute();

  await db.schema
    .createTable('channel_agents')
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('channel_id', 'integer', (c) => c.notNull().references('channels.id').onDelete('cascade'))
    .addColumn('agent_id', 'integer', (c) => c.notNull().references('agents.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('channel_agents_pk', ['channel_id', 'agent_id'])
    .execute();
  await db.schema.createIndex('channel_agents_agent').on('channel_agents').column('agent_id').execute();

  await db.schema
    .createTable('settings')
    .addColumn('account_id', 'integer', (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
    .addColumn('event_webhook_url', 'text')
    .addColumn('safe_url', 'text')
    .addColumn('webhook_secret', 'text', (c) => c.notNull())
    .addColumn('callback_json', 'text', (c) => c.notNull())
    .addColumn('rules_json', 'text')
    .addColumn('webhooks_paused_reason', 'text')
    .addColumn('updated_at', k.time, timeColumn)
    .execute();

  await db.schema
    .createTable('visitors')
    .addColumn('id', k.id, idColumn(k))
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('channel_id', 'integer', (c) => c.notNull().references('channels.id').onDelete('cascade'))
    .addColumn('external_id', 'text', (c) => c.notNull())
    .addColumn('external_id_is_number', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('number', 'integer', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('email', 'text')
    .addColumn('phone', 'text')
    .addColumn('photo', 'text')
    .addColumn('url', 'text')
    .addColumn('invite', 'text')
    .addColumn('description', 'text')
    .addColumn('user_token', 'text')
    .addColumn('blacklisted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('token_hash', 'text')
    .addColumn('session_json', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('chats_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', k.time, timeColumn)
    .addColumn('updated_at', k.time, timeColumn)
    .addUniqueConstraint('visitors_channel_external', ['channel_id', 'external_id'])
    .execute();
  await db.schema.createIndex('visitors_account_number').on('visitors').columns(['account_id', 'number']).execute();
  await db.schema.createIndex('visitors_token').on('visitors').column('token_hash').execute();

  await db.schema
    .createTable('chats')
    .addColumn('id', k.id, idColumn(k))
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('channel_id', 'integer', (c) => c.notNull().references('channels.id').onDelete('cascade'))
    .addColumn('visitor_id', 'integer', (c) => c.notNull().references('visitors.id').onDelete('cascade'))
    .addColumn('department_id', 'integer')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('accepted_by', 'integer')
    .addColumn('agent_ids_json', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('custom_data_json', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('contact_info_json', 'text')
    .addColumn('crm_link', 'text')
    .addColumn('enable_assign', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('page_json', 'text')
    .addColumn('rate', 'text')
    .addColumn('blacklisted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_seq', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', k.time, timeColumn)
    .addColumn('accepted_at', k.time)
    .addColumn('finished_at', k.time)
    .addColumn('updated_at', k.time, timeColumn)
    .execute();
  await db.schema.createIndex('chats_account_status').on('chats').columns(['account_id', 'status', 'id']).execute();
  await db.schema.createIndex('chats_visitor').on('chats').columns(['visitor_id', 'status']).execute();

  await db.schema
    .createTable('messages')
    .addColumn('id', k.id, idColumn(k))
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('chat_id', 'integer', (c) => c.notNull().references('chats.id').onDelete('cascade'))
    .addColumn('author', 'text', (c) => c.notNull())
    .addColumn('agent_id', 'integer')
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('text', 'text')
    .addColumn('file', 'text')
    .addColumn('file_name', 'text')
    .addColumn('file_size', k.time)
    .addColumn('thumb', 'text')
    .addColumn('latitude', k.real)
    .addColumn('longitude', k.real)
    .addColumn('extra_json', 'text')
    .addColumn('external_id', 'text')
    .addColumn('internal', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('suppressed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('delivery_status', 'text')
    .addColumn('delivery_error', 'text')
    .addColumn('created_at', k.time, timeColumn)
    .execute();
  await db.schema.createIndex('messages_chat').on('messages').columns(['chat_id', 'id']).execute();

  await db.schema
    .createTable('inbound_dedup')
    .$call(inboundDedupKey)
    .addColumn('message_id', 'integer')
    .addColumn('created_at', k.time, timeColumn)
    .addPrimaryKeyConstraint('inbound_dedup_pk', ['channel_id', 'sender_id', 'message_external_id'])
    .execute();

  await db.schema
    .createTable('events')
    .addColumn('id', k.id, idColumn(k))
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('chat_id', 'integer')
    .addColumn('channel_id', 'integer')
    .addColumn('seq', 'integer')
    .addColumn('data_json', 'text', (c) => c.notNull())
    .addColumn('created_at', k.time, timeColumn)
    .addColumn('relayed', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('events_account_id').on('events').columns(['account_id', 'id']).execute();
  await db.schema.createIndex('events_unrelayed').on('events').columns(['relayed', 'id']).execute();
  // The newest relayed id of an account (where a socket starts): answered from the index alone.
  await db.schema.createIndex('events_account_relayed').on('events').columns(['account_id', 'relayed', 'id']).execute();

  await db.schema
    .createTable('deliveries')
    .addColumn('id', k.id, idColumn(k))
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('event_id', 'integer')
    .addColumn('chat_id', 'integer')
    .addColumn('message_id', 'integer')
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('webhook_id', 'text', (c) => c.notNull().unique())
    .addColumn('chunked', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (c) => c.notNull())
    .addColumn('next_attempt_at', k.time, timeColumn)
    .addColumn('deadline_at', k.time)
    .addColumn('locked_until', k.time)
    .addColumn('last_status_code', 'integer')
    .addColumn('last_response', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', k.time, timeColumn)
    .addColumn('updated_at', k.time, timeColumn)
    .addColumn('delivered_at', k.time)
    .execute();
  await db.schema.createIndex('deliveries_due').on('deliveries').columns(['status', 'next_attempt_at']).execute();
  await db.schema.createIndex('deliveries_account_id').on('deliveries').columns(['account_id', 'id']).execute();

  await db.schema
    .createTable('offline_messages')
    .addColumn('id', k.id, idColumn(k))
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('channel_id', 'integer', (c) => c.notNull().references('channels.id').onDelete('cascade'))
    .addColumn('visitor_id', 'integer')
    .addColumn('name', 'text')
    .addColumn('email', 'text')
    .addColumn('phone', 'text')
    .addColumn('description', 'text')
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('created_at', k.time, timeColumn)
    .execute();
  await db.schema.createIndex('offline_messages_account').on('offline_messages').columns(['account_id', 'id']).execute();

  await db.schema
    .createTable('calls')
    .addColumn('id', k.id, idColumn(k))
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('channel_id', 'integer')
    .addColumn('chat_id', 'integer')
    .addColumn('visitor_id', 'integer')
    .addColumn('agent_id', 'integer')
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('phone', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('record_url', 'text')
    .addColumn('created_at', k.time, timeColumn)
    .addColumn('updated_at', k.time, timeColumn)
    .addColumn('ended_at', k.time)
    .execute();
  await db.schema.createIndex('calls_account').on('calls').columns(['account_id', 'id']).execute();
}
