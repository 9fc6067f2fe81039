/**
 * Sign-in throttling (docs/SECURITY.md, "Sign-in throttling"). Failures are
 * counted per (source address, e-mail) pair and per source address; past a
 * few free failures each new one makes that key wait longer (doubling up to
 * 15 minutes), and a key that waits is refused with 429 and Retry-After before
 * its password is even checked. Nothing is counted per e-mail alone: someone
 * failing against a person's e-mail from elsewhere never stops that person
 * signing in from their own address. A success clears its pair (not its
 * source: one good account must not buy an address more guesses). Failures
 * are forgotten a day after the last one; the retention worker deletes rows
 * past `expires_at` (server/retention/pruneAuth.ts). Unknown e-mails are
 * throttled exactly like known ones, so answers do not tell which exist.
 *
 * Behind a proxy TRUST_PROXY does not list (a shared address: the request
 * carries X-Forwarded-For), the pair and the source are also counted for the
 * client behind it (the header's last address). The proxy's own source
 * (100) and an `email` key (that e-mail through that proxy, 20) still bound
 * guessing, whatever addresses the header claims, but they do not stop a
 * client that signed in with that e-mail before (`known` rows, 30 days): a
 * person whose own address has no failures is not blocked by others'.
 */
import { sql } from 'kysely';
import { inTransaction, type Db, type Executor } from '../../db/database.js';
import type { SignInThrottlesTable } from '../../db/schema.js';
import { AppError } from '../../errors/AppError.js';

type Kind = Exclude<SignInThrottlesTable['kind'], 'known'>;

/** `limit` failures cost nothing; failure n ≥ limit makes the key wait base·2^(n−limit), at most max. */
export const THROTTLE_POLICY: Record<Kind, { limit: number; baseMs: number; maxMs: number }> = {
  pair: { limit: 5, baseMs: 15_000, maxMs: 15 * 60_000 },
  // Offices and NATs share one address: a source gets many more free failures.
  source: { limit: 100, baseMs: 15_000, maxMs: 15 * 60_000 },
  // One e-mail through one shared proxy, whoever the clients behind it (sharedSource.ts).
  email: { limit: 20, baseMs: 15_000, maxMs: 15 * 60_000 },
};
/** How long a client behind a shared proxy stays known for an e-mail after signing in with it. */
export const KNOWN_MS = 30 * 24 * 60 * 60_000;
/** Failures are forgotten this long after the last one. */
export const FORGET_MS = 24 * 60 * 60_000;

export function delayAfter(kind: Kind, failures: number): number {
  const { limit, baseMs, maxMs } = THROTTLE_POLICY[kind];
  if (failures < limit) return 0;
  return Math.min(maxMs, baseMs * 2 ** Math.min(failures - limit, 30));
}

export interface ThrottleKeys {
  address: string;
  email: string;
  /** The proxy the request came through when that address is shared (routes/signInSource.ts); then `address` is the client behind it. */
  via?: string | null;
}

const pairKey = (k: ThrottleKeys) => `pair:${k.address} ${k.email}`;
const sourceKey = (k: ThrottleKeys) => `source:${k.address}`;
const emailKey = (k: ThrottleKeys) => `email:${k.via ?? ''} ${k.email}`;
const knownKey = (k: ThrottleKeys) => `known:${k.address} ${k.email}`;

/**
 * 429 with Retry-After when the pair or the source must still wait; behind a
 * shared proxy also when the e-mail's failures through it wait, unless this
 * client signed in with that e-mail before (known): others' guesses never
 * stop a person whose own address has no failures.
 */
export async function assertNotThrottled(db: Executor, keys: ThrottleKeys, now: number): Promise<void> {
  const proxyKey = keys.via ? `source:${keys.via}` : null;
  const watched = [pairKey(keys), sourceKey(keys), ...(keys.via && proxyKey ? [emailKey(keys), proxyKey, knownKey(keys)] : [])];
  const found = await db
    .selectFrom('sign_in_throttles')
    .select(['key', 'kind', 'blocked_until'])
    .where('key', 'in', watched)
    .where('expires_at', '>', now)
    .execute();
  // A client known for the e-mail is not held by what others did through the proxy (the e-mail's count, the proxy's).
  const known = found.some((r) => r.kind === 'known');
  const shared = (r: { key: string; kind: string }) => r.kind === 'email' || r.key === proxyKey;
  const rows = found.filter((r) => r.kind !== 'known' && Number(r.blocked_until) > now && !(known && shared(r)));
  if (rows.length === 0) return;
  const until = Math.max(...rows.map((r) => Number(r.blocked_until)));
  const seconds = Math.ceil((until - now) / 1000);
  const wait = seconds < 120 ? `${seconds} second(s)` : `${Math.ceil(seconds / 60)} minute(s)`;
  throw new AppError('too_many_requests', `Too many failed sign-ins from this address; try again in ${wait}.`, { 'retry-after': String(seconds) });
}

/** Counts one failure against the pair and the source; `accountId` is the account of the agent the e-mail names, if any. */
export async function recordSignInFailure(db: Db, keys: ThrottleKeys & { accountId: number | null }, now: number): Promise<void> {
  await inTransaction(db, async (tx) => {
    await countFailure(tx, { key: pairKey(keys), kind: 'pair', address: keys.address, email: keys.email, account_id: keys.accountId }, now);
    await countFailure(tx, { key: sourceKey(keys), kind: 'source', address: keys.address, email: null, account_id: null }, now);
    if (keys.via) {
      await countFailure(tx, { key: emailKey(keys), kind: 'email', address: keys.via, email: keys.email, account_id: null }, now);
      await countFailure(tx, { key: `source:${keys.via}`, kind: 'source', address: keys.via, email: null, account_id: null }, now);
    }
  });
}

async function countFailure(
  tx: Executor,
  row: Pick<SignInThrottlesTable, 'key' | 'address' | 'email' | 'account_id'> & { kind: Kind },
  now: number,
): Promise<void> {
  // One upsert: a row that expired counts as none and starts again at one failure.
  const expired = sql<boolean>`sign_in_throttles.expires_at <= ${now}`;
  const counted = await tx
    .insertInto('sign_in_throttles')
    .values({ ...row, failures: 1, first_failure_at: now, last_failure_at: now, blocked_until: now, expires_at: now + FORGET_MS })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        failures: sql<number>`case when ${expired} then 1 else sign_in_throttles.failures + 1 end`,
        first_failure_at: sql<number>`case when ${expired} then ${now} else sign_in_throttles.first_failure_at end`,
        account_id: row.account_id,
        last_failure_at: now,
        blocked_until: now,
        expires_at: now + FORGET_MS,
      }),
    )
    .returning(['id', 'failures'])
    .executeTakeFirstOrThrow();
  const delay = delayAfter(row.kind, Number(counted.failures));
  if (delay === 0) return;
  await tx
    .updateTable('sign_in_throttles')
    .set({ blocked_until: now + delay, expires_at: now + Math.max(delay, FORGET_MS) })
    .where('id', '=', counted.id)
    .execute();
}

/** The person proved who they are from this address: its pair starts afresh; behind a shared proxy, this client is known for the e-mail. */
export async function clearPairThrottle(db: Executor, keys: ThrottleKeys, now: number): Promise<void> {
  await db.deleteFrom('sign_in_throttles').where('key', '=', pairKey(keys)).execute();
  if (!keys.via) return;
  const known = { failures: 0, first_failure_at: now, last_failure_at: now, blocked_until: now, expires_at: now + KNOWN_MS };
  await db
    .insertInto('sign_in_throttles')
    .values({ key: knownKey(keys), kind: 'known', address: keys.address, email: keys.email, account_id: null, ...known })
    .onConflict((oc) => oc.column('key').doUpdateSet({ expires_at: now + KNOWN_MS }))
    .execute();
}
