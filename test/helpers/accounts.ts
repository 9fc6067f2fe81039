/**
 * Test helpers for the admin API: a second account (inserted directly, since
 * the API never creates accounts), agents added through the API, and row
 * snapshots to prove a refused request stored nothing.
 */
import type { Database } from '../../server/db/schema.js';
import { hashPassword } from '../../server/domain/auth/passwords.js';
import { createSettingsRow } from '../../server/domain/settings/settingsRow.js';
import { bearer, type TestApp } from './testApp.js';

export const OTHER_PASSWORD = 'other-password-1';

/** Another account with its own administrator, signed in. */
export async function createOtherAccount(t: TestApp, email = 'boss@other.example'): Promise<{ accountId: number; adminId: number; token: string }> {
  const db = t.app.ctx.db;
  const now = Date.now();
  const hash = await hashPassword(OTHER_PASSWORD);
  const { accountId, adminId } = await db.transaction().execute(async (tx) => {
    const account = await tx
      .insertInto('accounts')
      .values({ name: 'Other', next_visitor_number: 1, created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const admin = await tx
      .insertInto('agents')
      .values({
        account_id: account.id,
        name: 'Other admin',
        email,
        password_hash: hash,
        role: 'admin',
        phone: null,
        photo_url: null,
        status: 'offline',
        active: 1,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await createSettingsRow(tx, account.id, now);
    return { accountId: account.id, adminId: admin.id };
  });
  return { accountId, adminId, token: await t.login(email, OTHER_PASSWORD) };
}

/** An agent created through the API by the bootstrap admin, and its token. */
export async function addAgent(
  t: TestApp,
  opts: { email: string; role?: 'admin' | 'agent'; password?: string; name?: string },
): Promise<{ id: number; token: string }> {
  const password = opts.password ?? 'agent-password-1';
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/agents',
    headers: bearer(t.adminToken),
    payload: { name: opts.name ?? 'Agent', email: opts.email, password, role: opts.role ?? 'agent' },
  });
  if (res.statusCode !== 201) throw new Error(`addAgent failed: ${res.statusCode} ${res.body}`);
  return { id: res.json().id as number, token: await t.login(opts.email, password) };
}

/** Every row of a table, in a stable order, to compare before and after a refused request. */
export async function rowsOf(t: TestApp, table: keyof Database): Promise<unknown[]> {
  const rows = await t.app.ctx.db.selectFrom(table).selectAll().execute();
  return rows.map((r) => JSON.stringify(r)).sort();
}
