/**
 * An older Parley on a database a newer one migrated (docs/DATA.md, "Backup and
 * restore"): it stops before serving, naming the migration it does not know and
 * what to do, on both stores; the database is left as it was.
 */
import { describe, expect, it } from 'vitest';
import { createTestApp, testDialect } from '../../test/helpers/testApp.js';
import { openStore } from './database.js';

describe(`a database from a newer Parley (${testDialect()})`, () => {
  it('stops the start with a message naming the unknown migration and what to do', async () => {
    const t = await createTestApp({ workers: false });
    const env = t.store.env;
    try {
      await t.app.ctx.db
        .insertInto('kysely_migration' as never)
        .values({ name: '999_from_the_future', timestamp: new Date().toISOString() })
        .execute();
      const config = { databaseUrl: env.DATABASE_URL ?? null, databaseSchema: env.DATABASE_SCHEMA ?? null, dataDir: env.DATA_DIR };
      await expect(openStore(config)).rejects.toThrow(
        /^This database was upgraded by a newer Parley: it has migration 999_from_the_future, which this Parley \(\d+\.\d+\.\d+\) does not know\. Start the newer version again, or restore a backup taken before the upgrade/,
      );
      const rows = await t.app.ctx.db
        .selectFrom('kysely_migration' as never)
        .select('name' as never)
        .execute();
      expect(rows.length).toBeGreaterThan(40);
    } finally {
      await t.close();
    }
  });
});
