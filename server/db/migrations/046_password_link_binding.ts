/**
 * Password links bound to the password they were issued against (#31 item
 * 4): `password_links.password_sha` is the sha256 of the agent's
 * `password_hash` when the link was made. A link opens only while the agent's
 * hash still has that digest, so any change of the password (the person's
 * own, an administrator's, another link's, reset-admin) ends every link made
 * before it. The digest, not the hash itself, is kept: nothing here helps
 * guess a password.
 *
 * Unused links made before this migration are bound to the password their
 * agent has now (computed here: SQLite has no sha256), so they keep working
 * until the next change; used ones stay null and never open anyway.
 */
import crypto from 'node:crypto';
import type { ColumnKinds } from '../columns.js';
import type { AnyDb } from './anyDb.js';

export async function up(db: AnyDb, _k: ColumnKinds): Promise<void> {
  await db.schema.alterTable('password_links').addColumn('password_sha', 'text').execute();
  const open = await db
    .selectFrom('password_links')
    .innerJoin('agents', 'agents.id', 'password_links.agent_id')
    .select(['password_links.id as id', 'agents.password_hash as password_hash'])
    .where('password_links.used_at', 'is', null)
    .execute();
  for (const row of open as Array<{ id: number; password_hash: string }>) {
    const sha = crypto.createHash('sha256').update(row.password_hash).digest('hex');
    await db.updateTable('password_links').set({ password_sha: sha }).where('id', '=', row.id).execute();
  }
}
