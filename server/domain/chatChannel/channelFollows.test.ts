/**
 * The chat channel's cache (channelCache.ts, AppContext.chatChannels) follows
 * channel.changed from every instance (docs/CHAT-CHANNEL.md): a secret rotated
 * through one instance is refused by the other as soon as the change's event
 * arrives there, not only when the other's 1 s entry runs out. Instance A's
 * clock stands still here, so its entries never run out: before the cache
 * followed the events, A accepted the old address for ever.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChatChannel, postInbound, textMessage, waitFor } from '../../../test/helpers/chatChannel.js';
import { bearer, createTestApp, freshStore, type TestApp, type TestStore } from '../../../test/helpers/testApp.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('two instances: the chat channel cache follows channel changes', () => {
  let store: TestStore;
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    store = freshStore();
    const env = { REDIS_URL };
    const frozen = Date.now();
    a = await createTestApp({ store, env, clock: () => frozen });
    b = await createTestApp({ store, env });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await store.cleanup();
  });

  it('refuses a rotated secret on the other instance once the change arrives, and takes the new one', async () => {
    const channel = await createChatChannel(a, { name: 'bridge' });
    expect((await postInbound(a, channel, textMessage('s-1', 'before'))).statusCode).toBe(200);
    const rotated = await b.app.inject({
      method: 'PATCH',
      url: `/api/v1/channels/${channel.id}`,
      headers: bearer(b.adminToken),
      payload: { rotate_secret: true },
    });
    expect(rotated.statusCode).toBe(200);
    const path = new URL(rotated.json<{ endpoint_url: string }>().endpoint_url).pathname;
    expect(path).not.toBe(channel.path);
    // A learns of it through the relayed channel.changed event (its own clock never lets the entry run out).
    const refused = await waitFor(
      async () => {
        const { statusCode } = await postInbound(a, channel, textMessage('s-1', 'after'));
        return statusCode !== 200 && statusCode;
      },
      10_000,
      100,
    );
    // 404, or 429 once the old address has made enough wrong guesses.
    expect([404, 429]).toContain(refused);
    expect((await postInbound(a, { ...channel, path }, textMessage('s-1', 'with the new secret'))).statusCode).toBe(200);
  });
});
