/**
 * Security #31, item 1: two deployments sharing one Redis see nothing of each
 * other, even when everything they used to derive their Redis key prefix
 * from is the same (docs/SECURITY.md §12).
 *
 * - SQLite: two deployments whose `DATA_DIR` has the same real path, as two
 *   containers each with `DATA_DIR=/data` have. Reproduced in one process:
 *   deployment A opens its database at P, its folder is then moved away (A's
 *   open database goes with it), and deployment B is made anew at the same P.
 * - PostgreSQL: two clusters of their own (test/faults/privatePostgres.ts),
 *   the same database and schema names in both, reached by a role that may
 *   not call pg_control_system() (so no cluster identity is readable).
 *
 * Both deployments have account 1, admin 1 and channel 1. Checked: B's admin
 * stream receives no frame of A's chat (A's visitor's name, e-mail, phone and
 * text); the chat-channel guessing limiter that A's traffic trips does not
 * refuse the same address on B; and the Redis keys the two write (presence of
 * their admins' sockets, limiter counters) never share a prefix.
 *
 * Each store uses its own Redis database number, so the keys counted are this
 * file's alone while other files use database 0.
 */
import fs from 'node:fs';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPrivatePostgres, type PrivatePostgres } from '../faults/privatePostgres.js';
import { createChatChannel, postInbound, textMessage, waitFor, type ChatChannel } from '../helpers/chatChannel.js';
import { listen, StreamClient, streamUrl } from '../helpers/realtime.js';
import { createTestApp, freshStore, testDialect, type TestApp, type TestStore } from '../helpers/testApp.js';

const REDIS_BASE = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const REDIS_DB = testDialect() === 'postgres' ? 14 : 13;
const REDIS_URL = `${REDIS_BASE.replace(/\/\d*$/, '')}/${REDIS_DB}`;
const PROBE_IP = '198.51.100.77';

interface Deployment {
  t: TestApp;
  base: string;
  channel: ChatChannel;
  stream: StreamClient;
}

/** Two stores with everything the old key prefix was made of in common. */
interface Twins {
  a: TestStore;
  b: TestStore;
  /** Opens A before B is made (the SQLite twin needs A's database open before B's folder exists). */
  openA(): Promise<TestApp>;
  cleanup(): Promise<void>;
}

function sqliteTwins(): Twins {
  const a = freshStore();
  const shared = a.env.DATA_DIR;
  const moved = `${shared}-a`;
  const b: TestStore = { env: { DATA_DIR: shared }, cleanup: async () => fs.rmSync(shared, { recursive: true, force: true }) };
  return {
    a,
    b,
    openA: async () => {
      const t = await createTestApp({ store: a, env: { REDIS_URL } });
      // A keeps its open database file; the path it was opened at now belongs to B.
      fs.renameSync(shared, moved);
      fs.mkdirSync(shared);
      return t;
    },
    cleanup: async () => {
      fs.rmSync(moved, { recursive: true, force: true });
      await b.cleanup();
    },
  };
}

async function postgresTwins(): Promise<Twins> {
  const clusters: PrivatePostgres[] = [await startPrivatePostgres(), await startPrivatePostgres()];
  const stores = await Promise.all(
    clusters.map(async (cluster) => ({ env: await restrictedDatabase(cluster), cleanup: async () => undefined }) satisfies TestStore),
  );
  return {
    a: stores[0],
    b: stores[1],
    openA: () => createTestApp({ store: stores[0], env: { REDIS_URL } }),
    cleanup: async () => {
      for (const cluster of clusters) cluster.destroy();
    },
  };
}

/** Database `parley`, schema `parley`, owned by a role that may not read the cluster's identity. */
async function restrictedDatabase(cluster: PrivatePostgres): Promise<Record<string, string>> {
  const admin = new pg.Client({ connectionString: cluster.url });
  await admin.connect();
  try {
    await admin.query('create role parley_app login');
    await admin.query('create database parley owner parley_app');
  } finally {
    await admin.end();
  }
  const url = new URL(cluster.url);
  url.pathname = '/parley';
  // As on installations where only superusers and pg_monitor may call it (a grant is per database).
  const inParley = new pg.Client({ connectionString: url.toString() });
  await inParley.connect();
  try {
    await inParley.query('revoke execute on function pg_control_system() from public');
  } finally {
    await inParley.end();
  }
  url.username = 'parley_app';
  return { DATABASE_URL: url.toString(), DATABASE_SCHEMA: 'parley' };
}

async function deploy(t: TestApp): Promise<Deployment> {
  const base = await listen(t.app);
  const channel = await createChatChannel(t);
  const stream = await StreamClient.ready(streamUrl(base, t.adminToken));
  return { t, base, channel, stream };
}

/** The distinct `parley:{…}:` prefixes of the keys in this file's Redis database. */
async function keyPrefixes(redis: Redis): Promise<Set<string>> {
  const keys = await redis.keys('*');
  return new Set(keys.map((k) => /^parley:\{[^}]*\}:/.exec(k)?.[0] ?? `(no prefix) ${k}`));
}

describe(`two deployments on one Redis (${testDialect()})`, () => {
  let twins: Twins;
  let A: Deployment;
  let B: Deployment;
  let redis: Redis;

  beforeAll(async () => {
    redis = new Redis(REDIS_URL);
    await redis.flushdb();
    twins = testDialect() === 'postgres' ? await postgresTwins() : sqliteTwins();
    A = await deploy(await twins.openA());
    B = await deploy(await createTestApp({ store: twins.b, env: { REDIS_URL } }));
  }, 120_000);

  afterAll(async () => {
    for (const d of [A, B]) {
      await d?.stream.close().catch(() => undefined);
      await d?.t.close();
    }
    await twins?.cleanup();
    await redis?.flushdb();
    redis?.disconnect();
  }, 60_000);

  it('have the same account, admin and channel ids (what used to make the keys meet)', () => {
    expect(A.channel.id).toBe(B.channel.id);
    expect(A.t.app.ctx.defaultAccountId).toBe(B.t.app.ctx.defaultAccountId);
  });

  it("B's admin receives no frame of A's chat", async () => {
    const visitor = { name: 'Alice Private', email: 'alice@a-deployment.example', phone: '+15550100111' };
    const res = await postInbound(A.t, A.channel, textMessage('alice-1', 'my card ends in 4242', visitor));
    expect(res.statusCode).toBe(200);
    await A.stream.until((c) => c.events().some((f) => f.type === 'message.created' && JSON.stringify(f).includes('4242')));
    // A barrier on B: B's own message reaches B's admin after anything A published before it would have.
    await new Promise((r) => setTimeout(r, 300));
    expect((await postInbound(B.t, B.channel, textMessage('bob-1', 'barrier on B'))).statusCode).toBe(200);
    await B.stream.until((c) => c.events().some((f) => JSON.stringify(f).includes('barrier on B')));
    const seenByB = JSON.stringify(B.stream.events());
    for (const secret of ['4242', visitor.name, visitor.email, visitor.phone, 'alice-1']) expect(seenByB).not.toContain(secret);
  });

  it('an address refused on A for guessing channel URLs is not refused on B', async () => {
    const guess = (d: Deployment, path: string) => d.t.app.inject({ method: 'GET', url: path, headers: { 'x-forwarded-for': PROBE_IP } });
    for (let i = 0; i < 20; i += 1) expect((await guess(A, `/wh/wrong${i}/${A.channel.public_id}/status`)).statusCode).toBe(404);
    await waitFor(async () => (await guess(A, `/wh/wrong/${A.channel.public_id}/status`)).statusCode === 429);
    // B answers the same address's next guess with its 404, not A's 429.
    const onB = await guess(B, `/wh/wrong/${B.channel.public_id}x/status`);
    expect(onB.statusCode).toBe(404);
  });

  it('never write a Redis key under a common prefix', async () => {
    // By now: both admins hold stream sockets (presence) and A has limiter counters.
    const prefixes = await waitFor(async () => {
      const found = await keyPrefixes(redis);
      return found.size >= 2 ? found : null;
    });
    expect([...prefixes].every((p) => p.startsWith('parley:{'))).toBe(true);
    expect(prefixes.size).toBe(2);
  });

  it('keep their prefix across a restart (it is stored in the database)', async () => {
    const before = await keyPrefixes(redis);
    await B.stream.close();
    await B.t.app.close();
    B = await deploy(await createTestApp({ store: twins.b, env: { REDIS_URL } }));
    await waitFor(async () => ((await keyPrefixes(redis)).size === before.size ? true : null));
    expect(await keyPrefixes(redis)).toEqual(before);
  });
});
