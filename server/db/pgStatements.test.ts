import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialect } from '../../test/helpers/testApp.js';
import { useNamedStatements } from './pgStatements.js';

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

  it('prepares a statement anew once a table it reads changed shape (another instance migrated)', async () => {
    await client.query('create temp table shape_probe (a int)');
    await client.query('insert into shape_probe values (1)');
    const read = () => client.query('select * from shape_probe where a = $1', [1]);
    expect((await read()).rows).toEqual([{ a: 1 }]);
    await client.query('alter table shape_probe add column b int');
    await expect(read()).rejects.toMatchObject({ code: '0A000' });
    expect((await read()).rows).toEqual([{ a: 1, b: null }]);
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
