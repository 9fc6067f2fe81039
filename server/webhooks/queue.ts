/**
 * The deliveries table as a work queue: claim due rows (a short transaction
 * that sets locked_until; FOR UPDATE SKIP LOCKED on PostgreSQL so instances
 * share the work and never take the same attempt), record an attempt (only
 * while our claim still holds), and find when the next row is due. What a
 * settled attempt changes besides its row (a chat-channel message, an event
 * webhook's pause) is the kind's (kinds.ts), done in the same transaction.
 */
import { sql } from 'kysely';
import type { AppContext } from '../context.js';
import type { Executor } from '../db/database.js';
import type { Delivery } from '../db/schema.js';
import { commit } from '../events/outbox.js';
import type { Decision } from './kind.js';
import { deliveryKinds, kindOf, policyFor } from './kinds.js';
import type { SendResult } from './send.js';

/** Extra lock time past the attempt's timeout, for recording it. */
export const LOCK_MARGIN_MS = 1000;
/**
 * A row with a deadline (chat channel: failed by 9 s) is locked at most this
 * long past its deadline: its attempt ends by the deadline, so another
 * instance takes over a dead instance's row soon enough to record `failed`
 * in time (a lock of timeout + LOCK_MARGIN_MS taken for the third attempt at
 * 6 s would only expire at 9.5 s).
 */
export const DEADLINE_LOCK_MARGIN_MS = 200;

export interface Claim {
  row: Delivery;
  /** The locked_until we set: our claim token when recording. */
  lock: number;
  secret: string;
}

export async function claimDue(ctx: AppContext, limit: number, now: number): Promise<Claim[]> {
  const lockFor = (kind: Delivery['kind']): number => now + policyFor(kind).timeoutMs + LOCK_MARGIN_MS;
  // One statement, so one short transaction: pick due, unlocked rows (skipping those another
  // instance is claiming right now) and lock them for the length of an attempt of their kind.
  const whens = Object.values(deliveryKinds).map(({ kind }) => sql`when kind = ${kind} then cast(${lockFor(kind)} as bigint)`);
  const lockByKind = sql<number>`case ${sql.join(whens, sql` `)} end`;
  const deadlineLock = sql<number>`deadline_at + cast(${DEADLINE_LOCK_MARGIN_MS} as bigint)`;
  const claimed = await ctx.db
    .updateTable('deliveries')
    .set({
      locked_until: sql<number>`case when deadline_at is not null and ${deadlineLock} < ${lockByKind} then ${deadlineLock} else ${lockByKind} end`,
    })
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('deliveries')
        .select('id')
        .where('status', '=', 'pending')
        .where('next_attempt_at', '<=', now)
        .where((w) => w.or([w('locked_until', 'is', null), w('locked_until', '<', now)]))
        .orderBy('next_attempt_at')
        .limit(limit)
        .$if(ctx.store.dialect === 'postgres', (qb) => qb.forUpdate().skipLocked()),
    )
    .returningAll()
    .execute();
  if (claimed.length === 0) return [];
  const accountIds = [...new Set(claimed.map((r) => r.account_id))];
  const secrets = await ctx.db.selectFrom('settings').select(['account_id', 'webhook_secret']).where('account_id', 'in', accountIds).execute();
  const byAccount = new Map(secrets.map((s) => [s.account_id, s.webhook_secret]));
  return claimed
    .sort((x, y) => x.next_attempt_at - y.next_attempt_at)
    .map((row) => ({ row, lock: Number(row.locked_until), secret: byAccount.get(row.account_id) ?? '' }));
}

/** Epoch ms when the next pending row becomes claimable, or null when none is pending. */
export async function nextDueAt(ctx: AppContext): Promise<number | null> {
  const row = await ctx.db
    .selectFrom('deliveries')
    .select(
      sql<number | string | null>`min(case when locked_until is not null and locked_until > next_attempt_at then locked_until + 1 else next_attempt_at end)`.as(
        'due',
      ),
    )
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return row?.due === null || row?.due === undefined ? null : Number(row.due);
}

/** One attempt's result, to be recorded against its claim. */
export interface AttemptRecord {
  claim: Claim;
  decision: Decision;
  result: SendResult | null;
  now: number;
}

/** The row's new columns after an attempt (the same for the single and the batched write). */
function attemptColumns({ claim: { row }, decision: d, result, now }: AttemptRecord) {
  return {
    attempts: d.attempts,
    status: d.status,
    next_attempt_at: d.nextAttemptAt,
    locked_until: null,
    last_status_code: result ? (result.statusCode ?? null) : row.last_status_code,
    last_response: result ? result.excerpt : row.last_response,
    last_error: d.lastError,
    delivered_at: d.status === 'delivered' ? now : null,
    updated_at: now,
  };
}

/** Whether recording this attempt changes more than its row (the kind says): then it has a transaction of its own. */
function settlesMore(row: Delivery, d: Decision): boolean {
  return kindOf(row.kind).settlesMore?.(row, d) ?? false;
}

/**
 * Whether recording this attempt is the row's one UPDATE and nothing else:
 * such records may be written together by recordPlainAttempts, in one statement.
 */
export function isPlainRecord(claim: Claim, d: Decision): boolean {
  return !settlesMore(claim.row, d);
}

/**
 * Writes the attempt's result, if our claim still holds (a redelivery or a
 * takeover after an expired lock wins otherwise). Returns the updated row, or
 * null when the claim was lost.
 */
export async function recordAttempt(ctx: AppContext, claim: Claim, d: Decision, result: SendResult | null, now: number): Promise<Delivery | null> {
  const { row, lock } = claim;
  const write = async (tx: Executor): Promise<Delivery | null> => {
    const updated = await tx
      .updateTable('deliveries')
      .set(attemptColumns({ claim, decision: d, result, now }))
      .where('id', '=', row.id)
      .where('status', '=', 'pending')
      .where('locked_until', '=', lock)
      .returningAll()
      .executeTakeFirst();
    return updated ?? null;
  };
  if (!settlesMore(row, d)) {
    // The one UPDATE: no transaction around it (two statements fewer per delivery).
    return write(ctx.db);
  }
  const settle = kindOf(row.kind).settle;
  // commit(): what the kind records (a message's `message.updated`) wakes the relay at once.
  return commit(ctx.db, ctx.signals, async (tx) => {
    const updated = await write(tx);
    if (updated && settle) await settle(tx, updated, d, now);
    return updated;
  });
}

/**
 * Records several plain attempts (isPlainRecord) in one UPDATE … FROM, one
 * round trip and one commit for all: each row is written exactly as
 * recordAttempt would (the same columns), and only where its own claim still
 * holds. The rows must be distinct. Returns, per record in order, the updated
 * row or null when its claim was lost.
 */
export async function recordPlainAttempts(ctx: AppContext, records: AttemptRecord[]): Promise<Array<Delivery | null>> {
  if (records.length === 0) return [];
  if (records.length === 1) {
    const [r] = records;
    return [await recordAttempt(ctx, r.claim, r.decision, r.result, r.now)];
  }
  const cols = records.map((r) => ({ id: r.claim.row.id, lock: r.claim.lock, ...attemptColumns(r) }));
  if (new Set(cols.map((c) => c.id)).size !== cols.length) throw new Error('recordPlainAttempts: a row appears twice');
  const set = sql`attempts = v.attempts, status = v.status, next_attempt_at = v.next_attempt_at, locked_until = null,
    last_status_code = v.last_status_code, last_response = v.last_response, last_error = v.last_error,
    delivered_at = v.delivered_at, updated_at = v.updated_at`;
  const claimHolds = sql`deliveries.id = v.id and deliveries.status = ${'pending'} and deliveries.locked_until = v.lock`;
  let query;
  if (ctx.store.dialect === 'postgres') {
    // One array per column: the statement text is the same whatever the number of rows.
    const column = <K extends keyof (typeof cols)[number]>(k: K) => cols.map((c) => c[k]);
    query = sql<Delivery>`update deliveries set ${set}
      from unnest(cast(${column('id')} as integer[]), cast(${column('lock')} as bigint[]), cast(${column('attempts')} as integer[]),
        cast(${column('status')} as text[]), cast(${column('next_attempt_at')} as bigint[]), cast(${column('last_status_code')} as integer[]),
        cast(${column('last_response')} as text[]), cast(${column('last_error')} as text[]), cast(${column('delivered_at')} as bigint[]),
        cast(${column('updated_at')} as bigint[]))
        as v(id, lock, attempts, status, next_attempt_at, last_status_code, last_response, last_error, delivered_at, updated_at)
      where ${claimHolds}
      returning deliveries.*`;
  } else {
    const rows = cols.map(
      (c) =>
        sql`(${c.id}, ${c.lock}, ${c.attempts}, ${c.status}, ${c.next_attempt_at}, ${c.last_status_code}, ${c.last_response}, ${c.last_error}, ${c.delivered_at}, ${c.updated_at})`,
    );
    query = sql<Delivery>`with v(id, lock, attempts, status, next_attempt_at, last_status_code, last_response, last_error, delivered_at, updated_at)
        as (values ${sql.join(rows)})
      update deliveries set ${set}
      from v
      where ${claimHolds}
      returning *`;
  }
  const { rows } = await query.execute(ctx.db);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return records.map((r) => byId.get(r.claim.row.id) ?? null);
}

/** Gives a claimed row back untouched (an attempt abandoned at shutdown): claimable again at once, not counted. */
export async function releaseClaim(ctx: AppContext, claim: Claim): Promise<void> {
  await ctx.db
    .updateTable('deliveries')
    .set({ locked_until: null })
    .where('id', '=', claim.row.id)
    .where('status', '=', 'pending')
    .where('locked_until', '=', claim.lock)
    .execute();
}
