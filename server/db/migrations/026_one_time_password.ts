/**
 * A one-time password (#19: `npm run reset-admin -- <email>`). The printed
 * password is stored like any other (agents.password_hash); this column says
 * what kind of password it is:
 *
 * - `chosen`: the person chose it (or an administrator set it): the default;
 * - `one_time`: printed by reset-admin, not used yet: it signs in once;
 * - `one_time_used`: it has signed in once; it signs in no more, and the
 *   session it opened can do nothing but change it (PUT /api/v1/me/password)
 *   or sign out: every other call answers 403 `password_change_required`.
 *
 * Choosing a password in any way (own change, a password link, an
 * administrator) makes it `chosen` again.
 */
import type { ColumnKinds } from '../columns.js';
import type { AnyDb } from './anyDb.js';

export async function up(db: AnyDb, _k: ColumnKinds): Promise<void> {
  await db.schema
    .alterTable('agents')
    .addColumn('password_state', 'text', (c) => c.notNull().defaultTo('chosen'))
    .execute();
}
