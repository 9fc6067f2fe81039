/**
 * The chat channel resolves channels through a per-process cache
 * (domain/chatChannel/channelCache.ts): what a change of the channel does to
 * the next request, on this instance (at once) and on another (within the TTL).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChatChannel, textMessage, type ChatChannel } from '../../../test/helpers/chatChannel.js';
import { bearer, createTestApp, freshStore, testDialect, type TestApp, type TestStore } from '../../../test/helpers/testApp.js';
import { CHANNEL_TTL_MS } from '../../domain/chatChannel/channelCache.js';
import { allRelayed } from '../../../test/helpers/realtime.js';

/** The tests move this clock past the cache's TTL. */
let now = Date.now();
const clock = () => now;

const status = (t: TestApp, path: string) => t.app.inject({ method: 'GET', url: `${path}/status` });
const post = (t: TestApp, path: string, senderId: string) =>
  t.app.inject({ method: 'POST', url: path, payload: JSON.stringify(textMessage(senderId, `from ${senderId}`)) });
const pathWithSecret = (channel: ChatChannel, secret: string) => `/wh/${secret}/${channel.public_id}`;
const rotate = async (t: TestApp, channel: ChatChannel): Promise<string> => {
  const res = await t.app.inject({ method: 'PATCH', url: `/api/v1/channels/${channel.id}`, headers: bearer(t.adminToken), payload: { rotate_secret: true } });
  expect(res.statusCode).toBe(200);
  return new URL(res.json().endpoint_url as string).pathname;
};
/** Rows a sender left: its visitor and its messages. */
const storedFor = async (t: TestApp, senderId: string) => {
  const db = t.app.ctx.db;
  const visitors = await db.selectFrom('visitors').select('id').where('external_id', '=', senderId).execute();
  const messages = await db.selectFrom('messages').select('id').where('text', '=', `from ${senderId}`).execute();
  return visitors.length + messages.length;
};

describe('chat channel: channels cached in the process', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ clock });
  });
  afterAll(async () => {
    await t.close();
  });

  it('serves the next requests without reading the channel again, and reads it again after the TTL', async () => {
    const channel = await createChatChannel(t);
    await allRelayed(t.app); // the channel's own channel.changed (created) has come and gone
    expect((await post(t, channel.path, 'cached-1')).statusCode).toBe(200);
    // Changed behind the cache's back, with no channel.changed (as a lost event would leave it): not seen here yet.
    await t.app.ctx.db.updateTable('channels').set({ secret: 'changed-elsewhere' }).where('id', '=', channel.id).execute();
    now += CHANNEL_TTL_MS - 1;
    expect((await post(t, channel.path, 'cached-2')).statusCode).toBe(200);
    expect((await status(t, channel.path)).statusCode).toBe(200);
    now += 1;
    expect((await post(t, channel.path, 'cached-3')).statusCode).toBe(404);
    expect((await post(t, pathWithSecret(channel, 'changed-elsewhere'), 'cached-4')).statusCode).toBe(200);
  });

  it('refuses the old secret at the next request after a rotation through the API, and takes the new one', async () => {
    const channel = await createChatChannel(t);
    expect((await status(t, channel.path)).statusCode).toBe(200);
    const rotated = await rotate(t, channel);
    expect((await post(t, channel.path, 'rotate-old')).statusCode).toBe(404);
    expect((await status(t, channel.path)).statusCode).toBe(404);
    expect((await post(t, rotated, 'rotate-new')).statusCode).toBe(200);
  });

  it('refuses a channel deleted through the API at the next request', async () => {
    const channel = await createChatChannel(t);
    expect((await post(t, channel.path, 'delete-before')).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/channels/${channel.id}`, headers: bearer(t.adminToken) })).statusCode).toBe(204);
    expect((await status(t, channel.path)).statusCode).toBe(404);
    expect((await post(t, channel.path, 'delete-after')).statusCode).toBe(404);
    expect(await storedFor(t, 'delete-after')).toBe(0);
  });

  it('keeps no miss: a channel that appears after a 404 works at once', async () => {
    const publicId = `late${Date.now().toString(36)}`;
    const path = `/wh/late-secret/${publicId}`;
    expect((await post(t, path, 'late-1')).statusCode).toBe(404);
    // Created by another instance: this one was not told.
    await t.app.ctx.db
      .insertInto('channels')
      .values({
        account_id: t.app.ctx.defaultAccountId,
        type: 'chat_api',
        name: 'Late',
        public_id: publicId,
        secret: 'late-secret',
        webhook_url: 'https://customer.example.com/hook',
        chunked: 0,
        options_json: '{}',
        created_at: now,
        updated_at: now,
      })
      .execute();
    expect((await post(t, path, 'late-2')).statusCode).toBe(200);
  });

  it('answers 404, not 500, to a message for a channel deleted behind the cache, storing nothing; other channels of its batch are stored', async () => {
    const gone = await createChatChannel(t);
    const alive = await createChatChannel(t);
    expect((await post(t, gone.path, 'gone-known')).statusCode).toBe(200);
    await t.app.ctx.db.deleteFrom('channels').where('id', '=', gone.id).execute(); // as another instance would, within the TTL
    // Submitted in one turn: one transaction (db/groupCommit.ts) that fails, then each job alone.
    const answers = await Promise.all([post(t, gone.path, 'gone-known'), post(t, gone.path, 'gone-new'), post(t, alive.path, 'alive-1')]);
    expect(answers.map((r) => r.statusCode)).toEqual([404, 404, 200]);
    expect(answers[0].json()).toEqual((await post(t, `/wh/x/${gone.public_id}x`, 'unknown')).json()); // the 404 of a missing channel
    expect(await storedFor(t, 'gone-new')).toBe(0);
    expect(await storedFor(t, 'gone-known')).toBe(0);
    expect(await storedFor(t, 'alive-1')).toBe(2);
    // The entry is gone too: the status no longer answers for the channel.
    expect((await status(t, gone.path)).statusCode).toBe(404);
  });
});

if (testDialect() !== 'postgres') {
  describe('chat channel: two instances on one store', () => {
    it.skip('needs PostgreSQL: SQLite serves one instance (runs in the postgres project)', () => undefined);
  });
} else {
  describe('chat channel: two instances on one PostgreSQL schema', () => {
    let store: TestStore;
    let a: TestApp;
    let b: TestApp;

    beforeAll(async () => {
      store = freshStore();
      a = await createTestApp({ store, clock });
      b = await createTestApp({ store, clock });
    });
    afterAll(async () => {
      await a?.close();
      await b?.close();
      await store?.cleanup();
    });

    it('B sees a rotation made on A within the TTL', async () => {
      const channel = await createChatChannel(a);
      expect((await post(b, channel.path, 'two-rotate-1')).statusCode).toBe(200);
      const rotated = await rotate(a, channel);
      expect((await post(a, channel.path, 'two-rotate-2')).statusCode).toBe(404);
      expect((await post(b, channel.path, 'two-rotate-3')).statusCode).toBe(200); // B's entry is younger than the TTL
      now += CHANNEL_TTL_MS;
      expect((await post(b, channel.path, 'two-rotate-4')).statusCode).toBe(404);
      expect((await post(b, rotated, 'two-rotate-5')).statusCode).toBe(200);
    });

    it('B answers 404, not 500, to a message for a channel A deleted within the TTL, and stores nothing', async () => {
      const channel = await createChatChannel(a);
      expect((await post(b, channel.path, 'two-delete-1')).statusCode).toBe(200);
      expect((await a.app.inject({ method: 'DELETE', url: `/api/v1/channels/${channel.id}`, headers: bearer(a.adminToken) })).statusCode).toBe(204);
      const known = await post(b, channel.path, 'two-delete-1');
      const fresh = await post(b, channel.path, 'two-delete-2');
      expect([known.statusCode, fresh.statusCode]).toEqual([404, 404]);
      expect(fresh.json().error.code).toBe((await post(b, `/wh/x/${channel.public_id}x`, 'unknown')).json().error.code);
      expect(await storedFor(b, 'two-delete-1')).toBe(0);
      expect(await storedFor(b, 'two-delete-2')).toBe(0);
      expect((await status(b, channel.path)).statusCode).toBe(404);
    });
  });
}
