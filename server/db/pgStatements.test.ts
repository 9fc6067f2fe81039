import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialect } from '../../test/helpers/testApp.js';
import { useNamedStatements } from './pgStatements.js';
import { isPlanChanged } from './transient.js';

describe.runIf(testDialect() === 'postgres')('named PostgreSQL statements', () => {
  let pool: pg.Pool;
  let client: pg.PoolClient;
  beforeAll(async () => {
    pool = new pg.Pool({ connectionString: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test', max: 1 });
    client = await pool.connect();
    useNamedStatements(client);
  });
  afterAll(async () => {
    client.release();
    await pool.end();
  });

  const prepared = async (): Promise<string[]> =>
    (await client.query<{ statement: string }>('select statement from pg_prepared_statements')).rows.map((r) => r.statement);

  it('prepares a parameterized text once and reuses it; other queries stay unnamed', async () => {
    for (const n of [1, 2, 3]) expect((await client.query('select $1::int + 1 as v', [n])).rows[0].v).toBe(n + 1);
    expect((await client.query('select 1 as one')).rows[0].one).toBe(1);
    expect(await prepared()).toEqual(['select $1::int + 1 as v']);
  });

  /** A read of a new temp table `name`, prepared once, after which the table gains a column (another instance migrated). */
  const readOfChangedTable = async (name: string) => {
    await client.query(`create temp table ${name} (a int)`);
    await client.query(`insert into ${name} values (1)`);
    const read = () => client.query(`select * from ${name} where a = $1`, [1]);
    expect((await read()).rows).toEqual([{ a: 1 }]);
    await client.query(`alter table ${name} add column b int`);
    return read;
  };

  it('runs a read again at once, prepared anew, when a table it reads changed shape (another instance migrated)', async () => {
    const read = await readOfChangedTable('shape_probe');
    expect((await read()).rows).toEqual([{ a: 1, b: null }]);
    expect((await read()).rows).toEqual([{ a: 1, b: null }]);
  });

  it('inside a transaction, fails the statement (the transaction is aborted) and prepares it anew for the next run', async () => {
    const read = await readOfChangedTable('shape_probe_tx');
    await client.query('begin');
    await client.query('savepoint s1');
    await client.query('rollback to savepoint s1');
    const failed = await read().catch((err: unknown) => err);
    expect(failed).toMatchObject({ code: '0A000' });
    expect(isPlanChanged(failed)).toBe(true);
    await client.query('rollback');
    // The transaction's next run (transient.ts runs it again) reads with the statement prepared anew.
    await client.query('begin');
    expect((await read()).rows).toEqual([{ a: 1, b: null }]);
    await client.query('commit');
  });

  it('runs a statement outside a transaction again when PostgreSQL aborts it for a deadlock', async () => {
    const other = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test' });
    await other.connect();
    const tag = `dl_${process.pid}_${Date.now()}`;
    try {
      await other.query(`create table ${tag}_a (v int); create table ${tag}_b (v int)`);
      // One statement taking two locks, one after the other: a, then b.
      await other.query(`create function ${tag}_both(p int) returns int language plpgsql as $$
        begin
          lock table ${tag}_a in access share mode;
          lock table ${tag}_b in access share mode;
          return p;
        end $$`);
      // The other side, in a transaction (a migration): b, then a. The statement waits first, so its
      // deadlock check (deadlock_timeout after its wait began) finds the cycle and aborts it.
      await other.query('begin');
      await other.query(`lock table ${tag}_b in access exclusive mode`);
      const statement = client.query(`select ${tag}_both($1) as v`, [5]);
      await new Promise((r) => setTimeout(r, 100));
      const migration = other
        .query(`lock table ${tag}_a in access exclusive mode`)
        .then(() => new Promise((r) => setTimeout(r, 200)))
        .then(() => other.query('commit'));
      expect((await statement).rows).toEqual([{ v: 5 }]);
      await migration;
    } finally {
      await other.query('rollback').catch(() => undefined);
      await other.query(`drop function if exists ${tag}_both(int); drop table if exists ${tag}_a; drop table if exists ${tag}_b`).catch(() => undefined);
      await other.end();
    }
  });

  it('prepares at most 256 texts per connection, then runs new ones unnamed', async () => {
    for (let i = 0; i < 300; i++) expect((await client.query(`select $1::int + ${i} as v`, [1])).rows[0].v).toBe(1 + i);
    expect((await prepared()).length).toBe(256);
    // The prepared ones still run, named.
    expect((await client.query('select $1::int + 1 as v', [41])).rows[0].v).toBe(42);
  });

  it('keeps error reporting per query', async () => {
    await expect(client.query('select $1::int / 0 as v', [1])).rejects.toThrow(/division by zero/);
    expect((await client.query('select $1::int + 1 as v', [1])).rows[0].v).toBe(2);
  });
});
