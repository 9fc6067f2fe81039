/**
 * GET /api/v1/chats/search (#20): full text over message text, the visitor's
 * name, e-mail and phone; each filter; cursor paging; an agent finds only
 * chats of its channels; bad filters answer 400 and name themselves.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAgent } from '../../../../../test/helpers/accounts.js';
import { createChatChannel, postInbound, textMessage, type ChatChannel } from '../../../../../test/helpers/chatChannel.js';
import { bearer, createTestApp, type TestApp } from '../../../../../test/helpers/testApp.js';
import { searchTuning } from '../../../../domain/chats/searchChats.js';

interface Hit {
  id: number;
  status: string;
  visitor: { name: string };
  unread_count: number;
  match: { field: string; message_id?: number; parts: Array<{ text: string; hit: boolean }> } | null;
}

const YEAR_MS = 365 * 86_400_000;

describe('chat search', () => {
  let t: TestApp;
  let support: ChatChannel;
  let sales: ChatChannel;
  let agent: { id: number; token: string };
  const chats: Record<string, number> = {};

  const search = async (query: string, token = t.adminToken) => {
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/chats/search?${query}`, headers: bearer(token) });
    return { status: res.statusCode, hits: res.statusCode === 200 ? res.json<Hit[]>() : [], body: res.json() };
  };
  const names = async (query: string, token?: string) => (await search(query, token)).hits.map((h) => h.visitor.name);

  const chatOf = async (channel: ChatChannel, sender: string, sender_extra: Record<string, unknown>, texts: string[]) => {
    for (const text of texts) expect((await postInbound(t, channel, textMessage(sender, text, sender_extra))).statusCode).toBe(200);
    const row = await t.app.ctx.db
      .selectFrom('chats')
      .innerJoin('visitors', 'visitors.id', 'chats.visitor_id')
      .select('chats.id')
      .where('visitors.external_id', '=', sender)
      .executeTakeFirstOrThrow();
    return row.id;
  };

  beforeAll(async () => {
    t = await createTestApp();
    agent = await addAgent(t, { email: 'agent@example.com', name: 'Sam' });
    support = await createChatChannel(t, { name: 'Support', agent_ids: [agent.id] });
    const seller = await addAgent(t, { email: 'seller@example.com', name: 'Sel' });
    sales = await createChatChannel(t, { name: 'Sales', agent_ids: [seller.id] });
    const db = t.app.ctx.db;
    const created = await t.app.inject({ method: 'POST', url: '/api/v1/departments', headers: bearer(t.adminToken), payload: { name: 'Billing' } });
    const department = created.json<{ id: number }>();
    chats.refund = await chatOf(support, 'v-refund', { name: 'Rita Refund', email: 'rita@shop.example', phone: '+1 (555) 010-0199' }, [
      'Hello there',
      'I want a refund for my broken kettle please',
    ]);
    chats.kettle = await chatOf(sales, 'v-kettle', { name: 'Karl Buyer', email: 'karl@buyer.example' }, ['Do you sell a blue kettle?', 'Große Preise?']);
    chats.old = await chatOf(support, 'v-old', { name: 'Olga Oldtimer' }, ['The invoice from last winter is wrong']);
    chats.noise = await chatOf(support, 'v-noise', { name: 'Nora Noise' }, ['<b>refund</b> & "quotes" <script>x</script>']);
    // Olga's chat: a year ago, finished, rated, in Billing, held by Sam.
    const yearAgo = Date.now() - YEAR_MS;
    await db
      .updateTable('chats')
      .set({
        created_at: yearAgo,
        updated_at: yearAgo,
        status: 'finished',
        finished_at: yearAgo,
        rate: 'positive',
        accepted_by: agent.id,
        department_id: department.id,
      })
      .where('id', '=', chats.old)
      .execute();
    await db.updateTable('messages').set({ created_at: yearAgo }).where('chat_id', '=', chats.old).execute();
    await db.updateTable('chats').set({ rate: 'negative' }).where('id', '=', chats.kettle).execute();
    chats.department = department.id;
  });
  afterAll(async () => {
    await t.close();
  });

  it('finds chats by message text, with the match marked in an excerpt', async () => {
    const { status, hits } = await search('q=refund');
    expect(status).toBe(200);
    expect(hits.map((h) => h.id)).toEqual([chats.noise, chats.refund]);
    const rita = hits.find((h) => h.id === chats.refund)!;
    expect(rita.match?.field).toBe('message');
    expect(rita.match?.parts.filter((p) => p.hit).map((p) => p.text)).toEqual(['refund']);
    expect(rita.match?.parts.map((p) => p.text).join('')).toContain('I want a refund for my broken kettle');
    expect(rita.unread_count).toBe(2);
    // Markup in a message is plain text in the parts, never interpreted.
    const nora = hits.find((h) => h.id === chats.noise)!;
    expect(nora.match?.parts.map((p) => p.text).join('')).toBe('<b>refund</b> & "quotes" <script>x</script>');
    // Word prefixes, several words (all must match one message), accents folded, phrases.
    expect(await names('q=kett')).toEqual(['Karl Buyer', 'Rita Refund']);
    expect(await names('q=broken%20kettle')).toEqual(['Rita Refund']);
    expect(await names('q=%22blue%20kettle%22')).toEqual(['Karl Buyer']);
    expect(await names('q=%22kettle%20blue%22')).toEqual([]);
    expect(await names('q=invoice')).toEqual(['Olga Oldtimer']);
    expect(await names('q=zebra')).toEqual([]);
  });

  it('finds chats by the visitor’s name, e-mail and phone', async () => {
    expect(await names('q=olga')).toEqual(['Olga Oldtimer']);
    expect(await names('q=karl%40buyer')).toEqual(['Karl Buyer']);
    const byMail = (await search('q=shop.example')).hits;
    expect(byMail.map((h) => h.visitor.name)).toEqual(['Rita Refund']);
    expect(byMail[0].match).toMatchObject({
      field: 'email',
      parts: [
        { text: 'rita@', hit: false },
        { text: 'shop.example', hit: true },
      ],
    });
    const byPhone = (await search('q=555-0100')).hits;
    expect(byPhone.map((h) => h.visitor.name)).toEqual(['Rita Refund']);
    expect(byPhone[0].match?.field).toBe('phone');
    expect(byPhone[0].match?.parts.find((p) => p.hit)?.text).toBe('555) 010-0');
  });

  it('applies each filter', async () => {
    expect(await names(`channel_id=${sales.id}`)).toEqual(['Karl Buyer']);
    expect(await names(`q=kettle&channel_id=${support.id}`)).toEqual(['Rita Refund']);
    expect(await names(`agent_id=${agent.id}`)).toEqual(['Olga Oldtimer']);
    expect(await names(`department_id=${chats.department}`)).toEqual(['Olga Oldtimer']);
    expect(await names('rating=positive')).toEqual(['Olga Oldtimer']);
    expect(await names('rating=negative')).toEqual(['Karl Buyer']);
    expect(await names('rating=none')).toEqual(['Nora Noise', 'Rita Refund']);
    expect(await names('status=finished')).toEqual(['Olga Oldtimer']);
    expect(await names('status=pending')).toEqual(['Nora Noise', 'Karl Buyer', 'Rita Refund']);
    const lastYear = new Date(Date.now() - YEAR_MS - 86_400_000).toISOString().slice(0, 10);
    const monthAgo = new Date(Date.now() - 30 * 86_400_000).toISOString();
    expect(await names(`from=${lastYear}&to=${encodeURIComponent(monthAgo)}`)).toEqual(['Olga Oldtimer']);
    expect(await names(`from=${encodeURIComponent(monthAgo)}`)).toEqual(['Nora Noise', 'Karl Buyer', 'Rita Refund']);
    expect(await names(`to=${Date.now() - 30 * 86_400_000}`)).toEqual(['Olga Oldtimer']);
  });

  it('pages with a cursor: limit, then before=<the last id>', async () => {
    const first = (await search('limit=2')).hits;
    expect(first.map((h) => h.id)).toEqual([chats.noise, chats.old]);
    const second = (await search(`limit=2&before=${first[1].id}`)).hits;
    expect(second.map((h) => h.id)).toEqual([chats.kettle, chats.refund]);
    expect((await search(`limit=2&before=${second[1].id}`)).hits).toEqual([]);
  });

  it('finds the same chats when matches are too many to list and chats are walked in windows (SQLite)', async () => {
    const queries = [
      'q=refund',
      'q=kett',
      'q=kettle&limit=1',
      `q=kettle&limit=1&before=${chats.kettle}`,
      'q=olga',
      'q=rita',
      `q=kettle&channel_id=${support.id}`,
    ];
    const before = await Promise.all(queries.map((q) => search(q)));
    const saved = { ...searchTuning };
    Object.assign(searchTuning, { matchCap: 1, firstWindow: 1, maxWindow: 2 });
    try {
      for (const [i, q] of queries.entries()) expect((await search(q)).hits, q).toEqual(before[i].hits);
    } finally {
      Object.assign(searchTuning, saved);
    }
    expect(before.map((r) => r.hits.length)).toEqual([2, 2, 1, 1, 1, 1, 1]);
  });

  it('shows an agent only the chats of its channels', async () => {
    expect(await names('q=kettle', agent.token)).toEqual(['Rita Refund']);
    expect(await names(`channel_id=${sales.id}`, agent.token)).toEqual([]);
    expect(await names('q=karl', agent.token)).toEqual([]);
  });

  it('answers 400, naming the problem, for bad filters', async () => {
    const cases: Array<[string, RegExp]> = [
      ['channel_id=abc', /channel_id must be an id/],
      ['agent_id=0', /agent_id must be an id/],
      ['department_id=-3', /department_id must be an id/],
      ['from=yesterday', /from must be a date/],
      ['to=2025-13-45T99:00Z', /to must be a date/],
      ['from=2025-02-01&to=2025-01-01', /from must be before to/],
      ['rating=great', /rating/],
      ['status=open', /status/],
      ['q=%21%21%21', /q must contain a letter or a digit/],
      [`q=${'x'.repeat(201)}`, /q/],
      ['limit=0', /limit/],
      ['before=x', /before/],
    ];
    for (const [query, message] of cases) {
      const res = await search(query);
      expect(res.status, query).toBe(400);
      expect(res.body.error.code, query).toBe('validation_failed');
      expect(res.body.error.message, query).toMatch(message);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/chats/search?q=refund' })).statusCode).toBe(401);
  });

  it('keeps the index in step with the messages: a visitor renamed, a channel deleted', async () => {
    await postInbound(t, support, textMessage('v-noise', 'still here', { name: 'Nadia Newname' }));
    expect(await names('q=nadia')).toEqual(['Nadia Newname']);
    expect(await names('q=nora')).toEqual([]);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/channels/${sales.id}`, headers: bearer(t.adminToken) })).statusCode).toBe(204);
    expect(await names('q=kettle')).toEqual(['Rita Refund']);
    expect(await names('q=karl')).toEqual([]);
  });
});
