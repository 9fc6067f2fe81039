/**
 * Logout closes the streams opened with that token at once (4401, as
 * deactivation does), well before the 25 s ping that would otherwise notice;
 * the agent's other sessions stay open. On one instance, and across two
 * instances sharing the store and Redis (logout on A, stream on B).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAgent } from '../../../../../test/helpers/accounts.js';
import { listen, StreamClient, streamUrl } from '../../../../../test/helpers/realtime.js';
import { bearer, createTestApp, freshStore, type TestApp, type TestStore } from '../../../../../test/helpers/testApp.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Far below PING_INTERVAL_MS (25 s): only an immediate close passes. */
const PROMPTLY_MS = 3000;

/** Logs out `token` through `on`, then checks that `closing` closes with 4401 and `staying` stays open and usable. */
async function logoutClosesOnlyItsStream(on: TestApp, token: string, closing: StreamClient, staying: StreamClient, other: string): Promise<void> {
  const started = Date.now();
  const res = await on.app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: bearer(token) });
  expect(res.statusCode).toBe(204);
  const closed = await closing.waitClosed(PROMPTLY_MS);
  expect(closed).toMatchObject({ code: 4401, reason: expect.stringMatching(/revoked/) });
  expect(Date.now() - started).toBeLessThan(PROMPTLY_MS);
  // The other session saw the same agent.updated and rechecked its own token: still valid.
  await staying.until((c) => c.events().some((f) => f.type === 'agent.updated'));
  await sleep(200);
  expect(staying.closeInfo).toBeNull();
  expect((await on.app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(other) })).statusCode).toBe(200);
}

describe('logout and open streams, one instance', () => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await createTestApp();
    base = await listen(t.app);
  });
  afterAll(() => t.close());

  it('closes the stream of the logged-out token at once; another session of the agent stays open', async () => {
    const agent = await addAgent(t, { email: 'leaving-for-lunch@example.com' });
    const second = await t.login('leaving-for-lunch@example.com', 'agent-password-1');
    const [mine, theirs] = await Promise.all([StreamClient.ready(streamUrl(base, agent.token)), StreamClient.ready(streamUrl(base, second))]);
    try {
      await logoutClosesOnlyItsStream(t, agent.token, mine, theirs, second);
    } finally {
      await theirs.close();
    }
  });
});

describe('logout and open streams, two instances on one store with REDIS_URL', () => {
  let store: TestStore;
  let a: TestApp;
  let b: TestApp;
  let baseB: string;
  beforeAll(async () => {
    store = freshStore();
    a = await createTestApp({ store, env: { REDIS_URL } });
    b = await createTestApp({ store, env: { REDIS_URL } });
    baseB = await listen(b.app);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await store.cleanup();
  });

  it("a logout on one instance closes that token's stream on the other at once; another session stays open", async () => {
    const agent = await addAgent(a, { email: 'roaming@example.com' });
    const second = await a.login('roaming@example.com', 'agent-password-1');
    const [mine, theirs] = await Promise.all([StreamClient.ready(streamUrl(baseB, agent.token)), StreamClient.ready(streamUrl(baseB, second))]);
    try {
      await logoutClosesOnlyItsStream(a, agent.token, mine, theirs, second);
    } finally {
      await theirs.close();
    }
  });
});
