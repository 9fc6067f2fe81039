import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChatChannel, postInbound, textMessage } from '../../../test/helpers/chatChannel.js';
import { createTestApp, type TestApp } from '../../../test/helpers/testApp.js';
import { inTransaction } from '../../db/database.js';
import { claimInbound, contentHash, DEDUP_WINDOW_MS, linkInbound, type DedupKey } from './dedupInbound.js';
import { normalizeMessage, type NormalizedMessage } from '../messages/normalizeMessage.js';

describe('claimInbound: a retry is the same content under the same id, within minutes, in an open chat', () => {
  let t: TestApp;
  let key: DedupKey;
  let chatId: number;
  let messageId: number;
  const T0 = 1_700_000_000_000;
  const claim = (now: number, k = key) => inTransaction(t.app.ctx.db, (tx) => claimInbound(tx, k, now));
  const link = (k: DedupKey, id: number) => inTransaction(t.app.ctx.db, (tx) => linkInbound(tx, k, id));
  const row = (k = key) =>
    t.app.ctx.db
      .selectFrom('inbound_dedup')
      .selectAll()
      .where('channel_id', '=', k.channelId)
      .where('sender_id', '=', k.senderId)
      .where('message_external_id', '=', k.messageId)
      .executeTakeFirstOrThrow();

  beforeAll(async () => {
    t = await createTestApp({ workers: false });
    const channel = await createChatChannel(t);
    // A real stored message in an open chat, for the keys to link to.
    expect((await postInbound(t, channel, textMessage('s-1', 'hello'))).statusCode).toBe(200);
    const stored = await t.app.ctx.db.selectFrom('messages').select(['id', 'chat_id']).orderBy('id', 'desc').executeTakeFirstOrThrow();
    chatId = stored.chat_id;
    messageId = stored.id;
    key = { accountId: t.app.ctx.defaultAccountId, channelId: channel.id, senderId: 's-1', messageId: 'm-1', contentHash: 'c-1' };
  });
  afterAll(async () => {
    await t.close();
  });

  it('claims a new key, refuses its repeat within the window while the chat is open, and renews it after the window', async () => {
    expect(await claim(T0)).toBe('new');
    await link(key, messageId);
    expect(await claim(T0 + 1)).toBe('retry');
    expect(await claim(T0 + DEDUP_WINDOW_MS)).toBe('retry'); // exactly the window: still a retry
    expect(await claim(T0, { ...key, senderId: 's-2' })).toBe('new'); // another sender's id is its own
    expect(await row()).toMatchObject({ created_at: T0, message_id: messageId, reused: 0 });
    expect(await claim(T0 + DEDUP_WINDOW_MS + 1)).toBe('new');
    expect(await row()).toMatchObject({ created_at: T0 + DEDUP_WINDOW_MS + 1, message_id: null, reused: 0 });
  });

  it('says "reused" when the id comes with other content, and holds the new content', async () => {
    const k = { ...key, messageId: 'm-reused' };
    expect(await claim(T0, k)).toBe('new');
    await link(k, messageId);
    expect(await claim(T0 + 1, { ...k, contentHash: 'c-other' })).toBe('reused');
    expect(await row(k)).toMatchObject({ content_hash: 'c-other', reused: 1, message_id: null });
  });

  it('is no retry when no message was stored for the key, or when its chat is finished', async () => {
    const unlinked = { ...key, messageId: 'm-unlinked' };
    expect(await claim(T0, unlinked)).toBe('new');
    expect(await claim(T0 + 1, unlinked)).toBe('new'); // nothing stored under it: nothing to repeat
    const finished = { ...key, messageId: 'm-finished' };
    expect(await claim(T0, finished)).toBe('new');
    await link(finished, messageId);
    expect(await claim(T0 + 1, finished)).toBe('retry');
    await t.app.ctx.db.updateTable('chats').set({ status: 'finished', finished_at: T0 }).where('id', '=', chatId).execute();
    expect(await claim(T0 + 2, finished)).toBe('new');
  });

  it('claims a key the retention worker deleted as new', async () => {
    const k = { ...key, messageId: 'm-deleted' };
    expect(await claim(T0, k)).toBe('new');
    await t.app.ctx.db.deleteFrom('inbound_dedup').where('message_external_id', '=', 'm-deleted').execute();
    expect(await claim(T0 + 1, k)).toBe('new');
  });
});

describe('contentHash: what a retry repeats', () => {
  const message = (raw: Record<string, unknown>): NormalizedMessage => {
    const input = normalizeMessage(raw);
    if (input.kind !== 'message') throw new Error('not a message');
    return input.message;
  };

  it('is the same for the same content whatever message.id, and differs when any stored field differs', () => {
    const base = message({ type: 'text', text: 'hello', id: 'a' });
    expect(contentHash(base)).toBe(contentHash(message({ type: 'text', text: 'hello', id: 'b' })));
    const others = [
      message({ type: 'text', text: 'hello!' }),
      message({ type: 'photo', file: 'https://x.example/a.png', text: 'hello' }),
      message({ type: 'photo', file: 'https://x.example/a.png', text: 'hello', duration: 3 }),
      message({ type: 'location', latitude: 1, longitude: 2 }),
      message({ type: 'location', latitude: 1, longitude: 2.5 }),
    ];
    const hashes = new Set([base, ...others].map(contentHash));
    expect(hashes.size).toBe(others.length + 1);
  });
});
