import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers/testApp.js';
import { prepared } from './prepared.js';

describe('prepared queries', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const byEmail = prepared(['accountId', 'email'], (db, p: { accountId: number; email: string }) =>
    db.selectFrom('agents').select(['id', 'email']).where('account_id', '=', p.accountId).where('email', '=', p.email).limit(1),
  );

  it('runs with the arguments of each call, in and out of a transaction', async () => {
    const admin = await t.app.ctx.db.selectFrom('agents').selectAll().executeTakeFirstOrThrow();
    expect(await byEmail.first(t.app.ctx.db, { accountId: admin.account_id, email: admin.email })).toEqual({ id: admin.id, email: admin.email });
    expect(await byEmail.first(t.app.ctx.db, { accountId: admin.account_id, email: 'nobody@example.com' })).toBeUndefined();
    expect(await byEmail.execute(t.app.ctx.db, { accountId: admin.account_id + 1000, email: admin.email })).toEqual([]);
    await t.app.ctx.db.transaction().execute(async (tx) => {
      expect((await byEmail.only(tx, { accountId: admin.account_id, email: admin.email })).id).toBe(admin.id);
    });
    await expect(byEmail.only(t.app.ctx.db, { accountId: admin.account_id, email: 'nobody@example.com' })).rejects.toThrow(/no row/);
  });

  it('refuses a builder that computes with an argument or leaves one out', async () => {
    const computes = prepared(['id'], (db, p: { id: number }) =>
      db
        .selectFrom('agents')
        .select('id')
        .where('id', '=', Number(p.id) + 1),
    );
    await expect(computes.execute(t.app.ctx.db, { id: 1 })).rejects.toThrow(/used as a value/);
    const drops = prepared(['id', 'name'], (db, p: { id: number; name: string }) => db.selectFrom('agents').select('id').where('id', '=', p.id));
    await expect(drops.execute(t.app.ctx.db, { id: 1, name: 'x' })).rejects.toThrow(/does not use name/);
  });
});
