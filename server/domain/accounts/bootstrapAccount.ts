/**
 * First start: when the database has no account yet, create one with its
 * administrator (ADMIN_EMAIL / ADMIN_PASSWORD, or a generated password that is
 * returned so main.ts prints it once) and its settings row. With a generated
 * password the first sign-in asks for the owner's e-mail, the company's name
 * and their own password (agents/firstRun.ts).
 */
import { sql } from 'kysely';
import { inTransaction, type Db } from '../../db/database.js';
import type { DialectName } from '../../db/columns.js';
import { randomToken } from '../../lib/ids.js';
import { hashPassword } from '../auth/passwords.js';
import { createSettingsRow } from '../settings/settingsRow.js';

export interface BootstrapResult {
  created: boolean;
  accountId: number;
  adminEmail?: string;
  /** Present only when the password was generated here. */
  generatedPassword?: string;
}

export async function bootstrapAccount(
  db: Db,
  opts: { adminEmail: string | null; adminPassword: string | null; now: number; dialect: DialectName },
): Promise<BootstrapResult> {
  const existing = await db.selectFrom('accounts').select('id').orderBy('id').limit(1).executeTakeFirst();
  if (existing) return { created: false, accountId: existing.id };

  const email = (opts.adminEmail ?? 'admin@localhost.localdomain').toLowerCase();
  const generatedPassword = opts.adminPassword ? undefined : randomToken(12);
  const passwordHash = await hashPassword(opts.adminPassword ?? generatedPassword!);

  return inTransaction(db, async (tx) => {
    // Instances starting together on an empty PostgreSQL database take turns here;
    // the one that comes second finds the account the first created.
    if (opts.dialect === 'postgres') await sql`select pg_advisory_xact_lock(hashtext('parley:bootstrap'))`.execute(tx);
    const again = await tx.selectFrom('accounts').select('id').limit(1).executeTakeFirst();
    if (again) return { created: false, accountId: again.id };
    const account = await tx
      .insertInto('accounts')
      // No name yet: the first sign-in asks for it ("Parley" stands in meanwhile: accountName.ts).
      .values({ name: '', next_visitor_number: 1, created_at: opts.now })
      .returning('id')
      .executeTakeFirstOrThrow();
    await tx
      .insertInto('agents')
      .values({
        account_id: account.id,
        name: 'Administrator',
        email,
        password_hash: passwordHash,
        // A generated password is printed in the log: its first sign-in asks for the owner's own (agents/firstRun.ts).
        password_state: generatedPassword ? 'generated' : 'chosen',
        role: 'admin',
        phone: null,
        photo_url: null,
        status: 'offline',
        active: 1,
        created_at: opts.now,
        updated_at: opts.now,
      })
      .execute();
    await createSettingsRow(tx, account.id, opts.now);
    return { created: true, accountId: account.id, adminEmail: email, generatedPassword };
  });
}
