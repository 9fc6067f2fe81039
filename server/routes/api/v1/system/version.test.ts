/** GET /api/v1/version: the package's version and the schema's migration level, for any signed-in agent. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, testDialect, type TestApp } from '../../../../../test/helpers/testApp.js';
import { migrationsFor } from '../../../../db/migrations/index.js';
import { columnKinds } from '../../../../db/columns.js';

describe('GET /api/v1/version', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ workers: false });
  });
  afterAll(async () => {
    await t.close();
  });

  it("says this Parley's version and the latest migration applied", async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/version', headers: bearer(t.adminToken) });
    expect(res.statusCode).toBe(200);
    const pkg = JSON.parse(readFileSync(path.join(import.meta.dirname, '../../../../../package.json'), 'utf8')) as { version: string };
    const names = Object.keys(migrationsFor(columnKinds(testDialect()))).sort();
    expect(res.json()).toEqual({ version: pkg.version, migration: names.at(-1), migrations_applied: names.length, store: testDialect() });
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/version' })).statusCode).toBe(401);
  });
});
