import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChatChannel } from '../../../test/helpers/chatChannel.js';
import { createTestApp, type TestApp } from '../../../test/helpers/testApp.js';
import { inTransaction } from '../../db/database.js';
import { claimInbound, contentHash, DEDUP_WINDOW_MS, linkInbound, type DedupKey } from './dedupInbound.js';
import { normalizeMessage, type NormalizedMessage } from '../messages/normalizeMessage.js';

describe('claimInbound: one message.id and content per sender per 24 h', () => {
  let t: TestApp;
  let key: DedupKey;
  const T0 = 1_700_000_000_000;
  const claim = (now: number, k = key) => inTransaction(t.app.ctx.db, (tx) => claimInbound(tx, k, now));
  const row = () =>
    t.app.ctx.db
      .selectFrom('inbound_dedup')
      .selectAll()
      .where('channel_id', '=', key.channelId)
      .where('sender_id', '=', key.senderId)
      .where('message_external_id', '=', key.messageId)
      .where('content_hash', '=', key.contentHash)
      .executeTakeFirstOrThrow();

  beforeAll(async () => {
    t = await createTestApp({ workers: false });
    const channel = await createChatChannel(t);
    key = { accountId: t.app.ctx.defaultAccountId, channelId: channel.id, senderId: 's-1', messageId: 'm-1', contentHash: 'c-1' };
  });
  afterAll(async () => {
    await t.close();
  });

  it('claims a new key, refuses it within the window, and renews it in place once the window is over', async () => {
    expect(await claim(T0)).toBe(true);
    await inTransaction(t.app.ctx.db, (tx) => linkInbound(tx, key, 42));
    expect(await claim(T0 + 1)).toBe(false);
    expect(await claim(T0 + DEDUP_WINDOW_MS)).toBe(false); // 24 h old: not older than 24 h yet
    expect(await claim(T0, { ...key, senderId: 's-2' })).toBe(true); // another sender's id is its own
    expect(await claim(T0 + 1, { ...key, contentHash: 'c-2' })).toBe(true); // the same id with other content is another message
    expect(await row()).toMatchObject({ created_at: T0, message_id: 42 });
    expect(await claim(T0 + DEDUP_WINDOW_MS + 1)).toBe(true);
    expect(await row()).toMatchObject({ created_at: T0 + DEDUP_WINDOW_MS + 1, message_id: null });
    expect(await claim(T0 + DEDUP_WINDOW_MS + 2)).toBe(false);
  });

  it('claims a key the retention worker deleted as new', async () => {
    const k = { ...key, messageId: 'm-deleted' };
    expect(await claim(T0, k)).toBe(true);
    await t.app.ctx.db.deleteFrom('inbound_dedup').where('message_external_id', '=', 'm-deleted').execute();
    expect(await claim(T0 + 2 * DEDUP_WINDOW_MS, k)).toBe(true);
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
