/**
 * EventFeed and retention, at the seam the sockets cannot show: a retention
 * pass that deletes events while a feed is replaying them (between two pages
 * of the replay) makes the feed call reset() before ready(), since the client
 * missed events that are gone. Rows are seeded relayed, straight into the
 * table; time is moved through the app's clock for the pass only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedChat } from '../../test/helpers/realtime.js';
import { createTestApp, type TestApp } from '../../test/helpers/testApp.js';
import { Retention } from '../retention/worker.js';
import { EventFeed, relayedHead } from './feed.js';

const DAY = 24 * 60 * 60 * 1000;

describe('EventFeed and retention', () => {
  let t: TestApp;
  let offset = 0;

  beforeAll(async () => {
    t = await createTestApp({ clock: () => Date.now() + offset, workers: false });
  });
  afterAll(async () => {
    await t.close();
  });

  it('calls reset before ready when events it was about to replay are deleted during the replay', async () => {
    const ctx = t.app.ctx;
    const chat = await seedChat(t.app);
    const cursor = await relayedHead(ctx.db, chat.accountId);
    // More than one replay page (500 rows).
    const rows = Array.from({ length: 600 }, () => ({
      account_id: chat.accountId,
      type: 'message.created',
      chat_id: chat.chatId,
      channel_id: chat.channelId,
      seq: null,
      data_json: '{}',
      created_at: Date.now(),
    }));
    const inserted = await ctx.db.insertInto('events').values(rows).returning('id').execute();
    // Seeded as relayed: the relay's cursor moves past them.
    await ctx.db
      .updateTable('relay_cursor')
      .set({ relayed_through: Math.max(...inserted.map((r) => r.id)) })
      .where('id', '=', 1)
      .execute();

    const sent: number[] = [];
    const calls: string[] = [];
    let pruned = false;
    const feed = new EventFeed({
      ctx,
      accountId: chat.accountId,
      cursor,
      visible: async () => {
        if (!pruned) {
          pruned = true;
          offset = 31 * DAY;
          try {
            await new Retention(ctx).pass();
          } finally {
            offset = 0;
          }
        }
        return true;
      },
      send: (e) => sent.push(e.id),
      reset: () => calls.push('reset'),
      ready: (at) => calls.push(`ready ${at}`),
      fail: (reason) => calls.push(`fail ${reason}`),
    });
    const at = await feed.start();
    feed.close();
    expect(sent).toHaveLength(500); // the first page, read before the delete
    expect(calls).toEqual(['reset', `ready ${at}`]);
  });
});
