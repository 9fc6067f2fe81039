/**
 * The deployment's random id (migration 044): made the first time any
 * instance asks, then read by every instance of the deployment, since they
 * share this database. Two deployments never share it, whatever their paths,
 * database names or roles, so it names everything a deployment keeps in a
 * shared Redis (realtime/namespace.ts).
 *
 * The insert ignores a row already there, so instances starting at once agree
 * on the first one written.
 */
import crypto from 'node:crypto';
import type { Store } from './database.js';

/** 128 random bits, hex: the form the id is stored in. */
const DEPLOYMENT_ID = /^[0-9a-f]{32}$/;

export async function deploymentId(store: Store, now: number = Date.now()): Promise<string> {
  const existing = await read(store);
  if (existing) return existing;
  await store.db
    .insertInto('deployment')
    .values({ id: 1, deployment_id: crypto.randomBytes(16).toString('hex'), created_at: now })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  const written = await read(store);
  if (!written) throw new Error('the deployment id could not be stored');
  return written;
}

async function read(store: Store): Promise<string | null> {
  const row = await store.db.selectFrom('deployment').select('deployment_id').where('id', '=', 1).executeTakeFirst();
  if (!row) return null;
  // Written only by this module; anything else (an edited row) is refused rather than trusted as a key name.
  if (!DEPLOYMENT_ID.test(row.deployment_id))
    throw new Error(`the deployment id stored in the database is not 32 hex digits: ${JSON.stringify(row.deployment_id)}`);
  return row.deployment_id;
}
