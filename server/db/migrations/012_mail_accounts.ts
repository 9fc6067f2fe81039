/**
 * Mail and the account lifecycle (issue #19):
 *
 * - `password_links`: single-use links that let a person set their own
 *   password: `invite` (an admin invited them, 72 h) or `reset` (forgotten
 *   or forced, 1 h). Only the sha256 of the token is stored; `used_at` is set
 *   when the link is used, or when a newer link of the same agent replaces it.
 * - settings: `notification_emails_json` (where offline messages, callback
 *   requests and missed chats are mailed; null = the account's admins),
 *   `missed_chat_minutes` (null = no missed-chat mail) and `archive_email`
 *   (every finished chat's transcript; null = none).
 * - `chats.missed_at`: when the missed-chat mail of a pending chat was
 *   written, so it is written once.
 * - `deliveries_kind`: the Mail page lists one kind of delivery by id.
 *
 * Mails themselves are deliveries of kind `mail` (server/mail/): no table of their own.
 */
import { idColumn, timeColumn, type ColumnKinds } from '../columns.js';
import type { AnyDb } from './anyDb.js';

export async function up(db: AnyDb, k: ColumnKinds): Promise<void> {
  await db.schema
    .createTable('password_links')
    .addColumn('id', k.id, idColumn(k))
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('agent_id', 'integer', (c) => c.notNull().references('agents.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', k.time, timeColumn)
    .addColumn('expires_at', k.time, timeColumn)
    .addColumn('used_at', k.time)
    .execute();
  await db.schema.createIndex('password_links_agent').on('password_links').columns(['agent_id', 'id']).execute();

  await db.schema.alterTable('settings').addColumn('notification_emails_json', 'text').execute();
  await db.schema.alterTable('settings').addColumn('missed_chat_minutes', 'integer').execute();
  await db.schema.alterTable('settings').addColumn('archive_email', 'text').execute();

  await db.schema.alterTable('chats').addColumn('missed_at', k.time).execute();

  await db.schema.createIndex('deliveries_kind').on('deliveries').columns(['account_id', 'kind', 'id']).execute();
}
