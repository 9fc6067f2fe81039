/**
 * EventFeed and retention, at the seam the sockets cannot show: a retention
 * pass that deletes events while a feed is replaying them (between two pages
 * of the replay) makes the feed call reset() before ready(), since the client
 * missed events that are gone. Rows are seeded relayed, straight into the
 * table; time is moved through the app's clock for the pass only.
 *
 * The replay cap bounds work, not only frames: a resume more than MAX_REPLAY
 * events behind reads none of them (no event reaches visible()), and a
 * catch-up that finds more than MAX_REPLAY reads at most that many, then
 * closes (fail) so the client's resume gets the reset.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedChat, seedRelayedEvents } from '../../test/helpers/realtime.js';
import { createTestApp, type TestApp } from '../../test/helpers/testApp.js';
import { Retention } from '../retention/worker.js';
import { EventFeed, MAX_REPLAY, relayedHead, type FeedOptions } from './feed.js';

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

describe('EventFeed: the replay cap', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ workers: false });
  });
  afterAll(async () => {
    await t.close();
  });

  /** A feed recording what it was asked to look at, send, reset and fail. */
  const recordingFeed = (accountId: number, cursor: number | null) => {
    const seen: number[] = [];
    const calls: string[] = [];
    const options: FeedOptions = {
      ctx: t.app.ctx,
      accountId,
      cursor,
      visible: (e) => {
        seen.push(e.id);
        return true;
      },
      send: () => undefined,
      reset: (reason) => calls.push(`reset ${reason}`),
      ready: (at) => calls.push(`ready ${at}`),
      fail: (reason) => calls.push(`fail ${reason}`),
    };
    return { feed: new EventFeed(options), seen, calls };
  };

  it('reads none of a backlog longer than MAX_REPLAY: reset, then ready at the head', async () => {
    const chat = await seedChat(t.app);
    const cursor = await relayedHead(t.app.ctx.db, chat.accountId);
    const backlog = await seedRelayedEvents(t.app, chat, MAX_REPLAY + 1);
    const { feed, seen, calls } = recordingFeed(chat.accountId, cursor);
    const at = await feed.start();
    feed.close();
    expect(seen).toEqual([]);
    expect(at).toBe(backlog[backlog.length - 1]);
    expect(calls).toEqual(['reset too_far_behind', `ready ${at}`]);
  });

  it('a catch-up that finds more than MAX_REPLAY reads at most that many, then fails', async () => {
    const chat = await seedChat(t.app);
    const { feed, seen, calls } = recordingFeed(chat.accountId, null);
    const at = await feed.start();
    // Events the hub never carried (a Redis outage, say): the catch-up finds them in the table.
    await seedRelayedEvents(t.app, chat, MAX_REPLAY + 1);
    feed.catchUp();
    const deadline = Date.now() + 5000;
    while (calls.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    feed.close();
    expect(calls).toEqual([`ready ${at}`, 'fail too far behind; reconnect with your cursor']);
    expect(seen.length).toBeLessThanOrEqual(MAX_REPLAY);
  });
});
