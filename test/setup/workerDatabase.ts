/**
 * Vitest setup (vitest.config.ts): on the postgres project, the files of each
 * vitest worker use a PostgreSQL database of their own, `<db>_w<VITEST_POOL_ID>`
 * beside TEST_DATABASE_URL's (created once, kept for the next runs), instead
 * of all sharing one. Each test app already makes its own schema, but the
 * workers run files side by side, and a schema dropped by one file's cleanup
 * while another file migrates fails that migration: Kysely's migrator lists
 * the tables of every schema of the database (introspection), and
 * pg_get_serial_sequence on a table whose schema was just dropped raises
 * `schema "t_…" does not exist`. A database per worker keeps the files that
 * run at the same time apart; files of one worker run one after another.
 * Every test reads TEST_DATABASE_URL after this file ran.
 */
import pg from 'pg';

const DUPLICATE_DATABASE = '42P04';
const UNIQUE_VIOLATION = '23505';

if (process.env.TEST_DB === 'postgres' && process.env.VITEST_POOL_ID) {
  const base = new URL(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
  const name = `${decodeURIComponent(base.pathname.slice(1)) || 'test'}_w${process.env.VITEST_POOL_ID}`;
  const client = new pg.Client({ connectionString: base.toString() });
  await client.connect();
  try {
    const exists = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (exists.rowCount === 0) {
      // template0: nobody is ever connected to it, so the copy cannot be refused for that.
      await client.query(`CREATE DATABASE "${name}" TEMPLATE template0`).catch((err: { code?: string }) => {
        if (err.code !== DUPLICATE_DATABASE && err.code !== UNIQUE_VIOLATION) throw err;
      });
    }
  } finally {
    await client.end();
  }
  base.pathname = `/${encodeURIComponent(name)}`;
  process.env.TEST_DATABASE_URL = base.toString();
}
