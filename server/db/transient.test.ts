/**
 * A transaction PostgreSQL aborts for concurrency alone is run again: the rule
 * (which errors, how many runs), and a real deadlock between two transactions
 * on PostgreSQL that both end committed.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testDialect, type TestApp } from '../../test/helpers/testApp.js';
import { inTransaction } from './database.js';
import { isTransient, retryTransient, TRANSIENT_ATTEMPTS } from './transient.js';

const pgError = (code: string) => Object.assign(new Error(`pg ${code}`), { code });

describe('retryTransient', () => {
  it('runs again after a deadlock or a serialization failure, and returns the run that succeeded', async () => {
    for (const code of ['40P01', '40001']) {
      let runs = 0;
      const value = await retryTransient(async () => {
        runs++;
        if (runs < 3) throw pgError(code);
        return 'done';
      });
      expect(value).toBe('done');
      expect(runs).toBe(3);
    }
  });

  it('gives up after its runs with the last error, and never runs again on another error', async () => {
    let runs = 0;
    await expect(
      retryTransient(async () => {
        runs++;
        throw pgError('40P01');
      }),
    ).rejects.toThrow('pg 40P01');
    expect(runs).toBe(TRANSIENT_ATTEMPTS);

    runs = 0;
    await expect(
      retryTransient(async () => {
        runs++;
        throw pgError('23505');
      }),
    ).rejects.toThrow('pg 23505');
    expect(runs).toBe(1);
    expect(isTransient(new Error('plain'))).toBe(false);
    // 0A000 is transient only as a prepared statement outdated by a migration (pgStatements.ts).
    expect(isTransient(Object.assign(new Error('cached plan must not change result type'), { code: '0A000' }))).toBe(true);
    expect(isTransient(Object.assign(new Error('unsupported feature'), { code: '0A000' }))).toBe(false);
    expect(isTransient(null)).toBe(false);
  });
});

describe.skipIf(testDialect() !== 'postgres')('a real deadlock on PostgreSQL', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
    await sql`create table deadlock_probe (id integer primary key, v integer not null)`.execute(t.app.ctx.db);
    await sql`insert into deadlock_probe values (1, 0), (2, 0)`.execute(t.app.ctx.db);
  });

  afterAll(async () => {
    await t?.close();
  });

  it('two transactions taking two rows in opposite orders both commit', async () => {
    // Each first run takes its first row, then waits until the other has taken its own: a lock cycle,
    // which PostgreSQL breaks by aborting one. The retried run does not wait.
    let firstRunsHolding = 0;
    const bothHold = () =>
      new Promise<void>((resolve) => {
        firstRunsHolding++;
        const check = () => (firstRunsHolding >= 2 ? resolve() : setTimeout(check, 5));
        check();
      });
    const runs = { a: 0, b: 0 };
    const write = (name: 'a' | 'b', first: number, second: number) =>
      inTransaction(t.app.ctx.db, async (tx) => {
        runs[name]++;
        await sql`update deadlock_probe set v = v + 1 where id = ${first}`.execute(tx);
        if (runs[name] === 1) await bothHold();
        await sql`update deadlock_probe set v = v + 1 where id = ${second}`.execute(tx);
      });
    await Promise.all([write('a', 1, 2), write('b', 2, 1)]);
    expect(runs.a + runs.b).toBe(3);
    const rows = await sql<{ id: number; v: number }>`select id, v from deadlock_probe order by id`.execute(t.app.ctx.db);
    expect(rows.rows).toEqual([
      { id: 1, v: 2 },
      { id: 2, v: 2 },
    ]);
  });
});

describe.skipIf(testDialect() !== 'postgres')('a table another instance migrated, on PostgreSQL', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
    await sql`create table shape_probe (id integer primary key, v integer not null)`.execute(t.app.ctx.db);
    await sql`insert into shape_probe values (1, 7)`.execute(t.app.ctx.db);
  });

  afterAll(async () => {
    await t?.close();
  });

  it('transactions and reads that prepared a select * of it run again and succeed', async () => {
    const db = t.app.ctx.db;
    const inTx = () =>
      inTransaction(db, (tx) =>
        tx
          .selectFrom('shape_probe' as never)
          .selectAll()
          .where('id' as never, '=', 1 as never)
          .execute(),
      );
    const bare = () =>
      db
        .selectFrom('shape_probe' as never)
        .selectAll()
        .where('id' as never, '>', 0 as never)
        .execute();
    // Concurrent runs prepare both texts on every connection of the pool.
    const all = () => Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? inTx() : bare())));
    for (const rows of await all()) expect(rows).toEqual([{ id: 1, v: 7 }]);
    await sql`alter table shape_probe add column added text`.execute(db);
    for (const rows of await all()) expect(rows).toEqual([{ id: 1, v: 7, added: null }]);
  });
});
