/**
 * How the relay claims outbox rows, per dialect. The relayed rows are always a
 * prefix of the events table in id order (the replay cursor of the sockets
 * depends on it: see realtime/feed.ts), so where the relay stands is one
 * number, `relay_cursor.relayed_through` (migration 006): a batch reads the
 * rows after it in id order and moves it on to the last row it relays, in the
 * batch's transaction. No event row is written twice.
 *
 * SQLite has one writer at a time, so ids commit in order: the rows after the
 * cursor are the batch.
 *
 * PostgreSQL hands out ids when rows are inserted, not when they commit: id 11
 * may be visible while id 10 is still in flight. Relays of all instances run
 * one batch at a time (the caller holds an advisory lock, which also keeps
 * one publish order), and never step over a gap: for each missing id between
 * the cursor and a claimed row, a probe insert of that id waits on the unique
 * index until its transaction ends (it committed: stop before it and take it
 * next batch; it rolled back or never was: step over it). The probe is rolled
 * back to a savepoint, so it leaves nothing behind (a new NOT NULL column of
 * events without a default must be added to its insert). An id still in flight
 * after MAX_GAP_WAIT_MS is stepped over and kept as a straggler: probed again
 * by every batch, and relayed late (after rows with higher ids) if it commits.
 */
import { sql, type Selectable } from 'kysely';
import type { Tx } from '../db/database.js';
import { prepared } from '../db/prepared.js';
import type { EventsTable } from '../db/schema.js';
import { insertGapProbe } from './outbox.js';

export type EventRow = Selectable<EventsTable>;

export interface Claim {
  rows: EventRow[];
  /** More rows may be claimable right away. */
  more: boolean;
}

/** Gap ids probed at most behind a claimed row: past that, a sequence jump (restore, crash), nothing in flight. */
const MAX_PROBES = 200;
/** A transaction holding an event id longer than this is assumed stuck; its gap is stepped over. */
export const MAX_GAP_WAIT_MS = 30_000;
/** How long one probe waits for the transaction holding a gap id (a batch waits at most this, then tries again). */
export const PROBE_WAIT_MS = 5_000;
/** A straggler still in flight after this long is forgotten (it was logged when stepped over): its transaction is not coming back. */
const MAX_STRAGGLER_MS = 10 * 60_000;

/** The relay's cursor as a subquery: an event is relayed when its id is at most this (feed, retention). */
export const RELAYED_THROUGH = sql<number>`(select relayed_through from relay_cursor where id = 1)`;

/** The rows after the cursor, oldest first (the primary key's range). */
export const claimOnSqlite = prepared(['limit'], (db, p: { limit: number }) =>
  db.selectFrom('events').selectAll().where('id', '>', RELAYED_THROUGH).orderBy('id').limit(p.limit),
);

/** The same, with the cursor (where a gap would begin) and, for the rest of the transaction, a bound on the probe's wait (and any lock wait of the batch's subscribers). */
const claimOnPostgres = prepared(['limit', 'lockTimeout'], (db, p: { limit: number; lockTimeout: string }) =>
  db
    .selectFrom('events')
    .selectAll()
    .select([RELAYED_THROUGH.as('relayed_through'), sql<string>`set_config('lock_timeout', ${p.lockTimeout}, true)`.as('lock_timeout')])
    .where('id', '>', RELAYED_THROUGH)
    .orderBy('id')
    .limit(p.limit),
);

const moveCursor = prepared(['id'], (db, p: { id: number }) => db.updateTable('relay_cursor').set({ relayed_through: p.id }).where('id', '=', 1));

export async function claimSqlite(tx: Tx, limit: number): Promise<Claim> {
  const rows = await claimOnSqlite.execute(tx, { limit });
  if (rows.length > 0) await moveCursor.execute(tx, { id: rows[rows.length - 1].id });
  return { rows, more: rows.length === limit };
}

type GapState = 'free' | 'committed' | 'in_flight';

export class PostgresClaimer {
  /** Gap id → when it was first seen in flight. */
  private readonly gapsSeen = new Map<number, number>();
  /** Ids stepped over while still in flight → when, and the account of the row after them (for the probe). */
  private readonly stragglers = new Map<number, { since: number; accountId: number }>();
  /** Stragglers the batch in progress relays late: forgotten only once it commits (committed()). */
  private relayingLate: number[] = [];

  constructor(
    private readonly onStuckGap: (id: number) => void,
    private readonly waits: { maxGapWaitMs: number; probeWaitMs: number } = { maxGapWaitMs: MAX_GAP_WAIT_MS, probeWaitMs: PROBE_WAIT_MS },
  ) {}

  async claim(tx: Tx, limit: number): Promise<Claim> {
    const late = this.stragglers.size > 0 ? await this.lateRows(tx) : [];
    const claimed = await claimOnPostgres.execute(tx, { limit, lockTimeout: `${this.waits.probeWaitMs}ms` });
    if (claimed.length === 0) return { rows: late, more: false };
    const rows: EventRow[] = claimed.map(({ relayed_through: _c, lock_timeout: _l, ...row }) => row);
    let next = claimed[0].relayed_through + 1;
    const settled: EventRow[] = [];
    let stopped = false;
    for (const row of rows) {
      next = Math.max(next, row.id - MAX_PROBES);
      while (next < row.id && !stopped) {
        if (await this.stepOver(tx, next, row.account_id)) next++;
        else stopped = true;
      }
      if (stopped) break;
      settled.push(row);
      next = row.id + 1;
    }
    if (settled.length > 0) await moveCursor.execute(tx, { id: settled[settled.length - 1].id });
    return { rows: [...late, ...settled], more: stopped || rows.length === limit };
  }

  /** Whether the relay may pass the missing id now. */
  private async stepOver(tx: Tx, id: number, accountId: number): Promise<boolean> {
    const state = await probeGap(tx, id, accountId);
    if (state !== 'in_flight') {
      this.gapsSeen.delete(id);
      return state === 'free';
    }
    const since = this.gapsSeen.get(id) ?? Date.now();
    this.gapsSeen.set(id, since);
    if (Date.now() - since < this.waits.maxGapWaitMs) return false;
    this.gapsSeen.delete(id);
    this.stragglers.set(id, { since: Date.now(), accountId });
    this.onStuckGap(id);
    return true;
  }

  /** The batch committed: the stragglers it relayed are done (a batch rolled back relays them again). */
  committed(): void {
    for (const id of this.relayingLate) this.stragglers.delete(id);
    this.relayingLate = [];
  }

  /** Stragglers that committed since, to relay with this batch; those rolled back or given up are forgotten. */
  private async lateRows(tx: Tx): Promise<EventRow[]> {
    // A straggler's probe does not wait: it has had its chance (the claim below sets the batch's wait).
    await sql`select set_config('lock_timeout', '10ms', true)`.execute(tx);
    const ids: number[] = [];
    for (const [id, { since, accountId }] of this.stragglers) {
      const state = await probeGap(tx, id, accountId);
      if (state === 'committed') ids.push(id);
      else if (state === 'free' || Date.now() - since > MAX_STRAGGLER_MS) this.stragglers.delete(id);
    }
    this.relayingLate = ids;
    if (ids.length === 0) return [];
    return tx.selectFrom('events').selectAll().where('id', 'in', ids).orderBy('id').execute();
  }
}

async function probeGap(tx: Tx, id: number, accountId: number): Promise<GapState> {
  await sql`savepoint relay_gap_probe`.execute(tx);
  try {
    const free = await insertGapProbe(tx, id, accountId);
    await sql`rollback to savepoint relay_gap_probe`.execute(tx);
    return free ? 'free' : 'committed';
  } catch (err) {
    await sql`rollback to savepoint relay_gap_probe`.execute(tx);
    if (isLockTimeout(err)) return 'in_flight';
    throw err;
  }
}

function isLockTimeout(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '55P03';
}
