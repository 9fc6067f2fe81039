/**
 * Agents' photos can be uploaded (#17 item 5): stored like visitors' files,
 * one `uploads` row each (counted in the account's UPLOAD_QUOTA_MB), with the
 * agent whose photo it is in `agent_id`. The upload sweeper deletes only rows
 * that neither a message nor an agent carries; an agent who picks another
 * photo (or a link, or none) lets go of the old one, which is swept.
 * No foreign key, as for the other columns of `uploads` (016): agents are
 * deactivated, not deleted.
 */
import type { ColumnKinds } from '../columns.js';
import type { AnyDb } from './anyDb.js';

export async function up(db: AnyDb, _k: ColumnKinds): Promise<void> {
  await db.schema.alterTable('uploads').addColumn('agent_id', 'integer').execute();
}
