/**
 * Sign-in throttles (domain/auth/throttles.ts) replace the old login_attempts
 * lock, which let anyone lock a person out by failing sign-ins against their
 * e-mail. One row per throttled key: an (address, e-mail) pair or a source
 * address. `account_id` is the account whose agent the pair names (null for an
 * unknown e-mail and for source rows), so an admin sees its own. `expires_at`
 * is when the row means nothing any more (its delay is over and its failures
 * are forgotten): the retention worker deletes by it, through
 * sign_in_throttles_expires_at. Throttling rows are short-lived, so the old
 * table is dropped rather than converted.
 */
import { idColumn, timeColumn, type ColumnKinds } from '../columns.js';
import type { AnyDb } from './anyDb.js';

export async function up(db: AnyDb, k: ColumnKinds): Promise<void> {
  await db.schema
    .createTable('sign_in_throttles')
    .addColumn('id', k.id, idColumn(k))
    .addColumn('key', 'text', (c) => c.notNull().unique())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('account_id', 'integer', (c) => c.references('accounts.id').onDelete('cascade'))
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('first_failure_at', k.time, timeColumn)
    .addColumn('last_failure_at', k.time, timeColumn)
    .addColumn('blocked_until', k.time, timeColumn)
    .addColumn('expires_at', k.time, timeColumn)
    .execute();
  await db.schema.createIndex('sign_in_throttles_expires_at').on('sign_in_throttles').column('expires_at').execute();
  await db.schema.createIndex('sign_in_throttles_account').on('sign_in_throttles').columns(['account_id', 'id']).execute();
  await db.schema.createIndex('sign_in_throttles_address').on('sign_in_throttles').columns(['address', 'kind']).execute();
  await db.schema.dropTable('login_attempts').execute();
}
