/**
 * Migration 006 on a store that already has events: the relay's cursor starts
 * at the newest row marked relayed, so the rows after it are relayed next and
 * none twice; the per-row mark and its index are gone.
 */
import { expect, it } from 'vitest';
import { migrationStore } from '../../../test/helpers/migrationStore.js';

const { db, migrator: openMigrator } = migrationStore();

it('starts the cursor at the newest relayed event and drops the per-row mark', async () => {
  const migrator = await openMigrator();
  expect((await migrator.migrateTo('005_retention')).error).toBeUndefined();

  const { id: accountId } = await db.insertInto('accounts').values({ name: 'a', created_at: 0 }).returning('id').executeTakeFirstOrThrow();
  const event = async (relayed: 0 | 1) =>
    (
      await db
        .insertInto('events')
        .values({ account_id: accountId, type: 'agent.updated', data_json: '{}', created_at: 0, relayed })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id as number;
  await event(1);
  const lastRelayed = await event(1);
  await event(0);

  expect((await migrator.migrateToLatest()).error).toBeUndefined();
  expect(await db.selectFrom('relay_cursor').selectAll().execute()).toEqual([{ id: 1, relayed_through: lastRelayed }]);
  await expect(db.selectFrom('events').select('relayed').execute()).rejects.toThrow(/relayed/);
  // One row only.
  await expect(db.insertInto('relay_cursor').values({ id: 2, relayed_through: 0 }).execute()).rejects.toThrow();
});
