/**
 * How the relay claims outbox rows, per dialect, so that the relayed rows are
 * always a prefix of the events table in id order (the replay cursor of the
 * sockets depends on it: see realtime/feed.ts).
 *
 * SQLite has one writer at a time, so ids commit in order: claiming is one
 * UPDATE … RETURNING, which also takes the write lock first thing.
 *
 * PostgreSQL hands out ids when rows are inserted, not when they commit: id 11
 * may be visible while id 10 is still in flight. Relays of all instances run
 * one batch at a time (the caller holds an advisory lock), claim rows with
 * FOR UPDATE SKIP LOCKED, and never step over a gap: for each missing id
 * between the last relayed row and a claimed one, a probe insert of that id
 * waits on the unique index until its transaction ends (it committed: stop
 * before it and take it next batch; it rolled back or never was: step over it).
 * The probe is rolled back to a savepoint, so it leaves nothing behind (a new
 * NOT NULL column of events without a default must be added to its insert).
 */
import { sql, type Selectable } from 'kysely';
import type { Tx } from '../db/database.js';
import { prepared } from '../db/prepared.js';
import type { EventsTable } from '../db/schema.js';

export type EventRow = Selectable<EventsTable>;

export interface Claim {
  rows: EventRow[];
  /** More rows may be claimable right away. */
  more: boolean;
}

/** Spelled as the partial index events_pending_relay spells it (a literal, not a parameter). */
const UNRELAYED = sql<boolean>`"relayed" = 0`;

/** Gap ids probed at most behind a claimed row: past that, a sequence jump (restore, crash), nothing in flight. */
const MAX_PROBES = 200;
/** A transaction holding an event id longer than this is assumed stuck; its gap is stepped over. */
export const MAX_GAP_WAIT_MS = 30_000;

export const claimOnSqlite = prepared(['limit'], (db, p: { limit: number }) =>
  db
    .updateTable('events')
    .set({ relayed: 1 })
    .where('id', 'in', db.selectFrom('events').select('id').where(UNRELAYED).orderBy('id').limit(p.limit))
    .returningAll(),
);

export async function claimSqlite(tx: Tx, limit: number): Promise<Claim> {
  const rows = await claimOnSqlite.execute(tx, { limit });
  rows.sort((a, b) => a.id - b.id);
  return { rows, more: rows.length === limit };
}

type GapState = 'free' | 'committed' | 'in_flight';

export class PostgresClaimer {
  /** Gap id → when it was first seen in flight. */
  private readonly gapsSeen = new Map<number, number>();

  constructor(private readonly onStuckGap: (id: number) => void) {}

  async claim(tx: Tx, limit: number): Promise<Claim> {
    // One statement: the claim; the newest relayed id (where a gap would begin); and, for the
    // rest of the transaction, a bound on the probe's wait (and any lock wait of the batch's
    // subscribers). With no row claimed, nothing else runs.
    const claimed = await tx
      .selectFrom('events')
      .selectAll()
      .select([sql<number | null>`(select max(id) from events where "relayed" = 1)`.as('relayed_head'), sql<string>`set_config('lock_timeout', '5s', true)`.as('lock_timeout')])
      .where(UNRELAYED)
      .orderBy('id')
      .limit(limit)
      .forUpdate()
      .skipLocked()
      .execute();
    if (claimed.length === 0) return { rows: [], more: false };
    const rows: EventRow[] = claimed.map(({ relayed_head: _h, lock_timeout: _l, ...row }) => row);
    let next = (claimed[0]!.relayed_head ?? 0) + 1;
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
    if (settled.length > 0) {
      await tx
        .updateTable('events')
        .set({ relayed: 1 })
        .where('id', 'in', settled.map((r) => r.id))
        .execute();
    }
    return { rows: settled, more: stopped || rows.length === limit };
  }

  /** Whether the relay may pass the missing id now. */
  private async stepOver(tx: Tx, id: number, accountId: number): Promise<boolean> {
    const state = await probeGap(tx, id, accountId);
    if (state === 'free') {
      this.gapsSeen.delete(id);
      return true;
    }
    if (state === 'committed') {
      this.gapsSeen.delete(id);
      return false;
    }
    const since = this.gapsSeen.get(id) ?? Date.now();
    this.gapsSeen.set(id, since);
    if (Date.now() - since < MAX_GAP_WAIT_MS) return false;
    this.gapsSeen.delete(id);
    this.onStuckGap(id);
    return true;
  }
}

async function probeGap(tx: Tx, id: number, accountId: number): Promise<GapState> {
  await sql`savepoint relay_gap_probe`.execute(tx);
  try {
    const inserted = await sql<{ id: number }>`
      insert into events (id, account_id, type, data_json, created_at, relayed)
      values (${id}, ${accountId}, '_relay_gap_probe', '{}', 0, 1)
      on conflict (id) do nothing
      returning id`.execute(tx);
    await sql`rollback to savepoint relay_gap_probe`.execute(tx);
    return inserted.rows.length > 0 ? 'free' : 'committed';
  } catch (err) {
    await sql`rollback to savepoint relay_gap_probe`.execute(tx);
    if (isLockTimeout(err)) return 'in_flight';
    throw err;
  }
}

function isLockTimeout(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '55P03';
}
