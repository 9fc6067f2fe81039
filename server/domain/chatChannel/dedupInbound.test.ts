import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChatChannel } from '../../../test/helpers/chatChannel.js';
import { createTestApp, type TestApp } from '../../../test/helpers/testApp.js';
import { inTransaction } from '../../db/database.js';
import { claimInbound, DEDUP_WINDOW_MS, linkInbound } from './dedupInbound.js';

describe('claimInbound: one message.id per sender per 24 h', () => {
  let t: TestApp;
  let key: { accountId: number; channelId: number; senderId: string; messageId: string };
  const T0 = 1_700_000_000_000;
  const claim = (now: number, k = key) => inTransaction(t.app.ctx.db, (tx) => claimInbound(tx, k, now));
  const row = () =>
    t.app.ctx.db
      .selectFrom('inbound_dedup')
      .selectAll()
      .where('channel_id', '=', key.channelId)
      .where('sender_id', '=', key.senderId)
      .where('message_external_id', '=', key.messageId)
      .executeTakeFirstOrThrow();

  beforeAll(async () => {
    t = await createTestApp({ workers: false });
    const channel = await createChatChannel(t);
    key = { accountId: t.app.ctx.defaultAccountId, channelId: channel.id, senderId: 's-1', messageId: 'm-1' };
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
