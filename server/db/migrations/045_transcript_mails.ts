/**
 * "E-mail me this conversation" mails only to an address the visitor proved
 * it owns (#31 item 2, domain/widget/transcriptMails.ts):
 *
 * - visitors.transcript_email: the address the visitor proved (it opened the
 *   confirmation link mailed there) or the page signed with the widget's
 *   identity secret; null = none yet. A transcript goes straight to the
 *   visitor's own e-mail only while it equals this.
 * - transcript_mails: every mail a visitor's request caused, a confirmation
 *   link (`kind` confirmation: the sha256 of its token, single-use through
 *   used_at, expiring at expires_at) or a transcript (`kind` transcript), so
 *   the caps per visitor and per account count in the store, whichever
 *   instance answered. `lang` is the widget's language the mails are in.
 */
import { idColumn, timeColumn, type ColumnKinds } from '../columns.js';
import type { AnyDb } from './anyDb.js';

export async function up(db: AnyDb, k: ColumnKinds): Promise<void> {
  await db.schema.alterTable('visitors').addColumn('transcript_email', 'text').execute();
  await db.schema
    .createTable('transcript_mails')
    .addColumn('id', k.id, idColumn(k))
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('visitor_id', 'integer', (c) => c.notNull().references('visitors.id').onDelete('cascade'))
    .addColumn('chat_id', 'integer', (c) => c.notNull().references('chats.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('lang', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.unique())
    .addColumn('expires_at', k.time)
    .addColumn('used_at', k.time)
    .addColumn('created_at', k.time, timeColumn)
    .execute();
  await db.schema.createIndex('transcript_mails_visitor').on('transcript_mails').columns(['visitor_id', 'created_at']).execute();
  await db.schema.createIndex('transcript_mails_account').on('transcript_mails').columns(['account_id', 'created_at']).execute();
}
