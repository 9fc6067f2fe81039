/**
 * A write path that opens its transaction with inTransaction (not a bare
 * db.transaction()) survives a real deadlock on PostgreSQL: the request caught
 * in the lock cycle runs again and answers 200, never a 500. PUT /routing
 * stands for them all (eslint.config.js keeps bare transactions out of server/).
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, testDialect, type TestApp } from '../../test/helpers/testApp.js';
import { inTransaction, type Tx } from './database.js';

describe.skipIf(testDialect() !== 'postgres')('a deadlock in a write path', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ workers: false });
  });

  afterAll(async () => {
    await t?.close();
  });

  const department = async (name: string): Promise<number> => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/departments', headers: bearer(t.adminToken), payload: { name } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ id: number }>().id;
  };

  /**
   * In one statement (no round trip through a busy test process): waits until some backend waits
   * for a lock this transaction holds, then updates the department. pg_locks is read live.
   */
  const closeCycle = (tx: Tx, departmentId: number) =>
    sql`do $$
      declare
        until timestamptz := clock_timestamp() + interval '10 seconds';
      begin
        while not exists (select 1 from pg_locks l where not l.granted and pg_backend_pid() = any(pg_blocking_pids(l.pid))) loop
          if clock_timestamp() > until then raise exception 'nothing waited for this transaction'; end if;
          perform pg_sleep(0.002);
        end loop;
        update departments set name = 'First, renamed' where id = ${sql.lit(departmentId)};
      end $$`.execute(tx);

  it('PUT /routing caught in a lock cycle runs again and answers 200 with its change stored', async () => {
    const first = await department('First');
    const second = await department('Second');
    // The other transaction takes the second department; the request takes the first and waits
    // for the second; then the other asks for the first: a cycle. The request waited first, so
    // its backend's deadlock check (deadlock_timeout after its wait began) finds the cycle and
    // aborts it; the other commits, and the request's second run goes through.
    let held!: () => void;
    const holding = new Promise<void>((resolve) => (held = resolve));
    let otherRuns = 0;
    const other = inTransaction(t.app.ctx.db, async (tx) => {
      otherRuns++;
      await sql`update departments set name = 'Second, renamed' where id = ${second}`.execute(tx);
      if (otherRuns > 1) {
        await sql`update departments set name = 'First, renamed' where id = ${first}`.execute(tx);
        return;
      }
      held();
      await closeCycle(tx, first);
    });
    await holding;
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/routing',
      headers: bearer(t.adminToken),
      payload: {
        departments: [
          { id: first, mode: 'round_robin' },
          { id: second, mode: 'least_busy' },
        ],
      },
    });
    await other;
    expect(res.statusCode, res.body).toBe(200);
    // The other ran once: the deadlock was the request's, and its retry answered.
    expect(otherRuns).toBe(1);
    const rows = await t.app.ctx.db.selectFrom('departments').select(['id', 'name', 'routing_mode']).where('id', 'in', [first, second]).orderBy('id').execute();
    expect(rows).toEqual([
      { id: first, name: 'First, renamed', routing_mode: 'round_robin' },
      { id: second, name: 'Second, renamed', routing_mode: 'least_busy' },
    ]);
  });
});
