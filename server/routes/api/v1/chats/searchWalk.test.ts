/**
 * GET /api/v1/chats/search (#20): the SQLite page finding's paths give the
 * same page, newest first, without duplicates: the first window alone, the
 * walk over windows, the match lists below the walked chats (a visitor's
 * chats read by visitor, then checked against the filters in chunks), both
 * together, and a window's messages read from the newest index entries or as
 * a range. On PostgreSQL the same queries check the same results.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChatChannel, postInbound, textMessage, type ChatChannel } from '../../../../../test/helpers/chatChannel.js';
import { bearer, createTestApp, type TestApp } from '../../../../../test/helpers/testApp.js';
import { searchTuning } from '../../../../domain/chats/searchChats.js';

describe('chat search: every way of finding a page gives the same page', () => {
  let t: TestApp;
  let support: ChatChannel;
  let sales: ChatChannel;
  const c: Record<string, number> = {};

  const ids = async (query: string): Promise<number[]> => {
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/chats/search?${query}`, headers: bearer(t.adminToken) });
    expect(res.statusCode, query).toBe(200);
    return res.json<Array<{ id: number }>>().map((h) => h.id);
  };

  const chatOf = async (channel: ChatChannel, sender: string, name: string, text: string) => {
    expect((await postInbound(t, channel, textMessage(sender, text, { name }))).statusCode).toBe(200);
    const row = await t.app.ctx.db
      .selectFrom('chats')
      .innerJoin('visitors', 'visitors.id', 'chats.visitor_id')
      .select('chats.id')
      .where('visitors.external_id', '=', sender)
      .orderBy('chats.id', 'desc')
      .executeTakeFirstOrThrow();
    return row.id;
  };

  /** A second chat of the visitor of `chatId`, newer than every chat so far, with one message. */
  const againOf = async (chatId: number, text: string) => {
    const db = t.app.ctx.db;
    const { id: _id, ...first } = await db.selectFrom('chats').selectAll().where('id', '=', chatId).executeTakeFirstOrThrow();
    const now = Date.now();
    const { id } = await db
      .insertInto('chats')
      .values({ ...first, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('messages')
      .values({ account_id: first.account_id, chat_id: id, author: 'visitor', type: 'text', text, internal: 0, suppressed: 0, created_at: now })
      .execute();
    return id;
  };

  beforeAll(async () => {
    t = await createTestApp();
    support = await createChatChannel(t, { name: 'Support' });
    sales = await createChatChannel(t, { name: 'Sales' });
    c.anna = await chatOf(support, 'w-anna', 'Anna Kowalski', 'my parcel is late');
    c.ben = await chatOf(sales, 'w-ben', 'Ben Kowalski', 'the parcel arrived broken');
    c.carl = await chatOf(support, 'w-carl', 'Carl Smith', 'Mrs Kowalski recommended you');
    c.dora = await chatOf(support, 'w-dora', 'Dora Smith', 'hello');
    c.annaAgain = await againOf(c.anna, 'again about the parcel');
    c.eve = await chatOf(support, 'w-eve', 'Eve Jones', 'parcel parcel parcel');
    c.finn = await chatOf(sales, 'w-finn', 'Finn Kowalski', 'hello');
    for (let n = 1; n <= 3; n++) await chatOf(support, `w-filler-${n}`, `Gus Filler${n}`, 'nothing to see');
  });
  afterAll(async () => {
    await t.close();
  });

  it('finds the same chats, newest first and each once, on every path', async () => {
    const cases: Array<[string, number[]]> = [
      // By visitor (three Kowalskis, Anna with two chats) and by text (Carl's message), one chat matching both ways.
      ['q=kowalski', [c.finn, c.annaAgain, c.carl, c.ben, c.anna]],
      [`q=kowalski&channel_id=${support.id}`, [c.annaAgain, c.carl, c.anna]],
      ['q=kowalski&limit=2', [c.finn, c.annaAgain]],
      [`q=kowalski&limit=2&before=${c.annaAgain}`, [c.carl, c.ben]],
      [`q=kowalski&before=${c.ben}`, [c.anna]],
      ['q=parcel', [c.eve, c.annaAgain, c.ben, c.anna]],
      [`q=parcel&channel_id=${sales.id}`, [c.ben]],
      [`q=parcel&limit=1&before=${c.eve}`, [c.annaAgain]],
      ['q=smith', [c.dora, c.carl]],
      ['q=anna', [c.annaAgain, c.anna]],
      ['q=nobody', []],
    ];
    const tunings = [
      { ...searchTuning },
      // Walk only: every list is too long.
      { matchCap: 1, firstWindow: 1, maxWindow: 2, listChunk: 1000, topRead: 20_000 },
      // One chat walked, then the lists, checked one candidate per query.
      { matchCap: 100, firstWindow: 1, maxWindow: 1, listChunk: 1, topRead: 20_000 },
      // Two walked, then lists of up to two (three Kowalskis: too many; the walk goes on with the text list).
      { matchCap: 3, firstWindow: 2, maxWindow: 1, listChunk: 2, topRead: 20_000 },
      // Windows' messages read as id ranges instead of from the newest entries down.
      { matchCap: 1, firstWindow: 2, maxWindow: 3, listChunk: 1000, topRead: 0 },
    ];
    const saved = { ...searchTuning };
    try {
      for (const tuning of tunings) {
        Object.assign(searchTuning, tuning);
        for (const [query, expected] of cases) expect(await ids(query), `${query} with ${JSON.stringify(tuning)}`).toEqual(expected);
      }
    } finally {
      Object.assign(searchTuning, saved);
    }
  });
});
