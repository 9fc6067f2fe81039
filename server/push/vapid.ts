/**
 * The deployment's VAPID key pair (RFC 8292): made the first time any
 * instance starts, kept in the database (migration 059, one row), so every
 * instance signs with the same key, a backup keeps it, and browsers'
 * subscriptions (made against its public key) survive restarts and restores.
 * The insert ignores a row already there, so instances starting at once
 * agree on the first one written. The public key is served at
 * GET /api/v1/push/vapid-public-key (the app's `applicationServerKey`).
 */
import webpush from 'web-push';
import type { Config } from '../config/config.js';
import type { Executor } from '../db/database.js';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

const KEY = /^[A-Za-z0-9_-]+$/;

export async function vapidKeys(db: Executor, now: number = Date.now()): Promise<VapidKeys> {
  const existing = await read(db);
  if (existing) return existing;
  const made = webpush.generateVAPIDKeys();
  await db
    .insertInto('web_push_keys')
    .values({ id: 1, public_key: made.publicKey, private_key: made.privateKey, created_at: now })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  const written = await read(db);
  if (!written) throw new Error('the VAPID keys could not be stored');
  return written;
}

async function read(db: Executor): Promise<VapidKeys | null> {
  const row = await db.selectFrom('web_push_keys').select(['public_key', 'private_key']).where('id', '=', 1).executeTakeFirst();
  if (!row) return null;
  if (!KEY.test(row.public_key) || !KEY.test(row.private_key)) throw new Error('the VAPID keys stored in the database are not base64url');
  return { publicKey: row.public_key, privateKey: row.private_key };
}

/**
 * The `sub` claim of the VAPID JWT: how the push service reaches the operator.
 * PUBLIC_URL when it is https (push services refuse a plain-http one), else a
 * mailto: address at its host.
 */
export function vapidSubject(config: Pick<Config, 'publicUrl'>): string {
  const url = new URL(config.publicUrl);
  if (url.protocol === 'https:' && url.hostname !== 'localhost') return url.origin;
  const host = url.hostname === 'localhost' || !url.hostname.includes('.') ? 'localhost.localdomain' : url.hostname;
  return `mailto:parley@${host}`;
}
