/**
 * Instances started at the same moment on an empty PostgreSQL schema (a
 * deployment's first start, test/scale): every one opens the store. CREATE
 * SCHEMA IF NOT EXISTS races between them (the loser hits pg_namespace's
 * unique index), and the migrations then run under Kysely's lock.
 */
import crypto from 'node:crypto';
import { afterAll, expect, it } from 'vitest';
import { testDialect } from '../../test/helpers/testApp.js';
import { dropPostgresSchema, openStore, type Store } from './database.js';

const url = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const schemas: string[] = [];

afterAll(async () => {
  for (const schema of schemas) await dropPostgresSchema(url, schema);
});

it.runIf(testDialect() === 'postgres')('opens the same new schema from several instances at once', async () => {
  for (let round = 0; round < 3; round++) {
    const schema = `t_${crypto.randomBytes(6).toString('hex')}`;
    schemas.push(schema);
    const opened = await Promise.allSettled(Array.from({ length: 6 }, () => openStore({ databaseUrl: url, databaseSchema: schema, dataDir: '/nonexistent' })));
    const stores = opened.filter((r): r is PromiseFulfilledResult<Store> => r.status === 'fulfilled').map((r) => r.value);
    await Promise.all(stores.map((s) => s.close()));
    expect(opened.filter((r) => r.status === 'rejected').map((r) => String(r.reason))).toEqual([]);
  }
});
