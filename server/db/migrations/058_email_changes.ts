/**
 * An agent's own change of e-mail (#36 item 1, domain/agents/changeOwnEmail.ts):
 * the new address waits here until the link mailed to it is opened. Only the
 * sha256 of the link's token is stored (made as the mail is sent, as password
 * links are: mail/passwordLinkMail.ts); the address changes when the link is
 * opened, before it expires, once.
 */
import { idColumn, timeColumn, type ColumnKinds } from '../columns.js';
import type { AnyDb } from './anyDb.js';

export async function up(db: AnyDb, k: ColumnKinds): Promise<void> {
  await db.schema
    .createTable('email_changes')
    .addColumn('id', k.id, idColumn(k))
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('agent_id', 'integer', (c) => c.notNull().references('agents.id').onDelete('cascade'))
    .addColumn('new_email', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', k.time, timeColumn)
    .addColumn('expires_at', k.time, timeColumn)
    .addColumn('used_at', k.time)
    .execute();
  await db.schema.createIndex('email_changes_agent').on('email_changes').column('agent_id').execute();
}
