import type { KyselyPlugin } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addAgent } from '../../../test/helpers/accounts.js';
import { createChatChannel, postInbound, textMessage } from '../../../test/helpers/chatChannel.js';
import { createTestApp, type TestApp } from '../../../test/helpers/testApp.js';
import { inTransaction, isPostgres, type Tx } from '../../db/database.js';
import type { Channel } from '../../db/schema.js';
import { contentHash } from './dedupInbound.js';
import { parseInbound } from './parseInbound.js';
import { NewSenderConflict, openNewSenders } from './newSenders.js';
import type { InboundJob } from './inboundJob.js';
import { storeInboundBatch } from './storeInboundBatch.js';

/**
 * New senders' first messages written together (newSenders.ts) must write
 * exactly what one job after the other writes by the rule of a visitor's
 * message (storeInboundBatch's storeEach, `together: false`): the same jobs go to
 * two channels that start alike, one written job by job, the other as one
 * batch, and the visitors, chats, messages, events (chat.created's payload
 * included), message.id keys and routing offers of both are compared (the
 * routing state, agents' stamps and offers, put back between the two runs).
 */
describe('storeInboundBatch: new senders', () => {
  let t: TestApp;
  const T0 = 1_700_000_000_000;

  const details = { name: 'Ada', email: 'ada@example.com', phone: '+44 1', url: 'https://shop.example.com/cart' };
  const withId = (sender: Record<string, unknown>, text: string, id: string) => ({ sender, message: { type: 'text', text, id } });
  /**
   * A key claimed just before the batch, linked to a message of the sender's open chat (live: its repeat is a
   * duplicate). A new sender's message cannot be a retry: a retry repeats a stored message of an open chat.
   */
  const preClaimed = [withId({ id: 'known' }, 'seen', 'k-9')];

  const bodies = (): unknown[] => [
    withId({ id: 'new-a', ...details }, 'hello', 'a-1'),
    textMessage('known', 'known again'),
    textMessage('new-b', 'no details, no id'),
    withId({ id: 'new-a', ...details }, 'second', 'a-2'),
    withId({ id: 77, name: 'Number' }, 'a numeric sender id', 'n-1'),
    withId({ id: 'new-late' }, 'second try', 'l-2'),
    withId({ id: 'new-twice' }, 'once', 't-1'),
    withId({ id: 'new-twice' }, 'once', 't-1'), // repeated in the batch: a duplicate
    { sender: { id: 'new-typist' }, message: { type: 'typein' } }, // typing: job by job (storeEach)
    textMessage('new-typist', 'typed'),
    textMessage('new-mixed', 'one', { name: 'Mixed' }),
    textMessage('new-mixed', 'two', { name: 'Mixed', email: 'mixed@example.com' }), // details change: alone
    preClaimed[0],
    withId({ id: 'known' }, 'known with an id', 'k-1'),
    { sender: { id: 'new-a', ...details }, message: { type: 'location', latitude: 48.85, longitude: 2.35, id: 'a-3' } },
    textMessage('new-b', 'again'),
    textMessage('finished', 'back again'),
  ];

  const setUp = async (name: string): Promise<Channel> => {
    const channel = await createChatChannel(t, { name });
    for (const id of ['known', 'finished'])
      expect((await postInbound(t, channel, textMessage(id, `${id} first`, { name: `Name ${id}` }))).statusCode).toBe(200);
    const db = t.app.ctx.db;
    const row = await db.selectFrom('channels').selectAll().where('id', '=', channel.id).executeTakeFirstOrThrow();
    const finished = db.selectFrom('visitors').select('id').where('channel_id', '=', row.id).where('external_id', '=', 'finished');
    await db.updateTable('chats').set({ status: 'finished', finished_at: 1 }).where('visitor_id', '=', finished).execute();
    const lastMessageOf = async (channelId: number, senderId: string): Promise<number> =>
      (
        await db
          .selectFrom('messages')
          .innerJoin('chats', 'chats.id', 'messages.chat_id')
          .innerJoin('visitors', 'visitors.id', 'chats.visitor_id')
          .select((eb) => eb.fn.max('messages.id').as('id'))
          .where('visitors.channel_id', '=', channelId)
          .where('visitors.external_id', '=', senderId)
          .executeTakeFirstOrThrow()
      ).id;
    for (const body of preClaimed) {
      const req = parseInbound(JSON.stringify(body));
      if (req.kind !== 'message') throw new Error('a message');
      await db
        .insertInto('inbound_dedup')
        .values({
          account_id: row.account_id,
          channel_id: row.id,
          sender_id: req.sender.id,
          message_external_id: req.message.external_id!,
          content_hash: contentHash(req.message),
          message_id: await lastMessageOf(row.id, req.sender.id),
          created_at: T0 - 1000,
        })
        .execute();
    }
    return row;
  };

  const jobsFor = (channel: Channel, list: unknown[]): InboundJob[] =>
    list.map((body, i) => ({ channel, req: parseInbound(JSON.stringify(body)), now: T0 + i }));

  /** What a channel holds, with ids replaced by what they name (visitor numbers relative to the channel's first new one). */
  const snapshot = async (channel: Channel, firstNew: number) => {
    const db = t.app.ctx.db;
    const visitors = await db.selectFrom('visitors').selectAll().where('channel_id', '=', channel.id).orderBy('external_id').execute();
    const byId = new Map(visitors.map((v) => [v.id, v]));
    const chats = await db.selectFrom('chats').selectAll().where('channel_id', '=', channel.id).orderBy('id').execute();
    const chatName = new Map(
      chats.map((c) => [c.id, `${byId.get(c.visitor_id)!.external_id}#${chats.filter((o) => o.visitor_id === c.visitor_id && o.id <= c.id).length}`]),
    );
    const messages = await db
      .selectFrom('messages')
      .selectAll()
      .where('chat_id', 'in', [0, ...chats.map((c) => c.id)])
      .orderBy('id')
      .execute();
    const events = await db.selectFrom('events').selectAll().where('channel_id', '=', channel.id).orderBy('id').execute();
    for (const chat of chats) {
      const seqs = events.filter((e) => e.chat_id === chat.id).map((e) => e.seq);
      expect(seqs).toEqual(seqs.map((_, i) => i + 1)); // ascending with the ids, no gap, none twice
      expect(chat.last_seq).toBe(seqs.length);
    }
    const byChat = <R extends { id: number }>(rows: R[], chatOf: (r: R) => number | null) =>
      [...rows].sort((x, y) => (chatName.get(chatOf(x)!) ?? '').localeCompare(chatName.get(chatOf(y)!) ?? '') || x.id - y.id);
    const messageIds = new Map(
      messages.map((m) => [m.id, `${chatName.get(m.chat_id)}/${messages.filter((o) => o.chat_id === m.chat_id && o.id <= m.id).length}`]),
    );
    const dedup = await db
      .selectFrom('inbound_dedup')
      .selectAll()
      .where('channel_id', '=', channel.id)
      .orderBy('sender_id')
      .orderBy('message_external_id')
      .orderBy('content_hash')
      .execute();
    const offers = await db
      .selectFrom('chat_offers')
      .selectAll()
      .where('chat_id', 'in', [0, ...chats.map((c) => c.id)])
      .execute();
    const newNumbers = visitors.filter((v) => v.number >= firstNew).map((v) => v.number - firstNew);
    return {
      dedup: dedup.map(({ channel_id: _c, account_id: _a, message_id, ...d }) => ({ ...d, message: message_id === null ? null : messageIds.get(message_id) })),
      // Visitors of messages that arrived together may be numbered in another order: the same numbers, each once.
      numbers: newNumbers.sort((a, b) => a - b),
      visitors: visitors.map(({ id: _id, channel_id: _c, number: _n, updated_at: _u, ...v }) => v),
      // Chats of different visitors may be opened in another order (their messages arrived together).
      chats: chats.map(({ id, visitor_id: _v, channel_id: _c, ...c }) => ({ ...c, name: chatName.get(id)! })).sort((x, y) => x.name.localeCompare(y.name)),
      messages: byChat(messages, (m) => m.chat_id).map(({ id: _id, chat_id, ...m }) => ({ ...m, chat: chatName.get(chat_id) })),
      offers: offers.map(({ chat_id, ...o }) => ({ ...o, chat: chatName.get(chat_id)! })).sort((x, y) => x.chat.localeCompare(y.chat)),
      events: byChat(events, (e) => e.chat_id).map((e) => {
        const data = JSON.parse(e.data_json) as {
          message?: { id: number; chat_id: number };
          chat?: { id: number; channel_id: number; visitor: { id: number; number: number } };
        };
        const message = data.message ? { ...data.message, id: messageIds.get(data.message.id), chat_id: chatName.get(data.message.chat_id) } : undefined;
        let chat: unknown;
        if (data.chat) {
          const visitor = byId.get(data.chat.visitor.id)!;
          expect(data.chat.visitor.number).toBe(visitor.number); // the event names the visitor as stored
          expect(data.chat.channel_id).toBe(channel.id);
          const { id, channel_id: _c, visitor: shown, ...rest } = data.chat;
          const { id: _vid, number: _n, ...visitorRest } = shown;
          chat = { ...rest, id: chatName.get(id), visitor: { ...visitorRest, external_id: visitor.external_id } };
        }
        return {
          type: e.type,
          chat: chatName.get(e.chat_id!),
          seq: e.seq,
          created_at: e.created_at,
          ...(message ? { message } : {}),
          ...(chat ? { data: chat } : {}),
        };
      }),
    };
  };

  const nextNumber = async (channel: Channel) =>
    (await t.app.ctx.db.selectFrom('accounts').select('next_visitor_number').where('id', '=', channel.account_id).executeTakeFirstOrThrow())
      .next_visitor_number;

  /** Writes `list` job by job on one new channel and as one batch on another; returns the outcomes and snapshots of both. */
  /** The transaction, counting the statements run through it (each a round trip on PostgreSQL). */
  const counted = (tx: Tx, counts: { one: number; all: number }, key: 'one' | 'all'): Tx => {
    const plugin: KyselyPlugin = {
      transformQuery: (args) => args.node,
      transformResult: (args) => {
        counts[key]++;
        return Promise.resolve(args.result);
      },
    };
    return tx.withPlugin(plugin);
  };

  /**
   * Routing's state (the agents' stamps, the offers) now; the function returned
   * puts it back, so that the batch picks its agents from the state the job by
   * job run started from.
   */
  const routingState = async () => {
    const db = t.app.ctx.db;
    const stamps = await db.selectFrom('agents').select(['id', 'last_offered_at']).execute();
    const offers = (await db.selectFrom('chat_offers').select('chat_id').execute()).map((o) => o.chat_id);
    return async () => {
      for (const { id, last_offered_at } of stamps) await db.updateTable('agents').set({ last_offered_at }).where('id', '=', id).execute();
      await db
        .deleteFrom('chat_offers')
        .where('chat_id', 'not in', [0, ...offers])
        .execute();
    };
  };

  let run = 0;
  /** `beforeRuns`: called once both channels are set up, before either is written to. */
  const bothWays = async (list: unknown[], beforeRuns: () => Promise<void> = async () => {}) => {
    const db = t.app.ctx.db;
    run++;
    const alone = await setUp(`alone ${run}`);
    const batched = await setUp(`batched ${run}`);
    await beforeRuns();
    const aloneFirst = await nextNumber(alone);
    const statements = { one: 0, all: 0 };
    const restore = await routingState();
    const one = await inTransaction(db, async (tx) => {
      const out = [];
      for (const job of jobsFor(alone, list)) out.push(...(await storeInboundBatch(counted(tx, statements, 'one'), [job], { together: false })));
      return out;
    });
    const a = await snapshot(alone, aloneFirst);
    await restore();
    const batchedFirst = await nextNumber(batched);
    const all = await inTransaction(db, (tx) => storeInboundBatch(counted(tx, statements, 'all'), jobsFor(batched, list)));
    return { one, all, statements, a, b: await snapshot(batched, batchedFirst) };
  };

  beforeAll(async () => {
    t = await createTestApp({ workers: false, clock: () => 1_690_000_000_000 }); // the channels' visitors start with the same times
  });
  afterAll(async () => {
    await t.close();
  });

  it('writes what its jobs write one by one, mixed with known senders, duplicates and a sender twice', async () => {
    const { one, all, a, b } = await bothWays(bodies());
    expect(all).toEqual(one);
    expect(one).toEqual([
      'stored',
      'stored',
      'stored',
      'stored',
      'stored',
      'stored',
      'stored',
      'duplicate',
      'typing_ignored',
      'stored',
      'stored',
      'stored',
      'duplicate',
      'stored',
      'stored',
      'stored',
      'stored',
    ]);
    expect(b.messages).toHaveLength(a.messages.length);
    // The set-up's known#1 and finished#1, then new-a, new-b, 77, new-late, new-twice, new-typist, new-mixed and finished#2.
    expect(b.events.filter((e) => e.type === 'chat.created')).toHaveLength(10);
    expect(a.visitors.map((v) => v.external_id)).not.toContain('new-gone');
    expect(b).toEqual(a);
  });

  it('writes a batch of new senders only as one at a time does', async () => {
    const list = Array.from({ length: 12 }, (_, i) => withId({ id: `only-${i % 6}`, ...details, name: `Only ${i % 6}` }, `message ${i}`, `o-${i}`));
    const { one, all, statements, a, b } = await bothWays(list);
    expect(all).toEqual(one);
    expect(one).toEqual(list.map(() => 'stored'));
    expect(b.numbers).toEqual([0, 1, 2, 3, 4, 5]);
    expect(b).toEqual(a);
    // Together: the touch, the routing mode, the claims, the numbers, visitors and chats, the messages, the events, the links.
    expect(statements.one).toBeGreaterThanOrEqual(12 * 5);
    expect(statements.all).toBeLessThanOrEqual(8 + (isPostgres(t.app.ctx.db) ? 0 : 12));
  });

  it('refuses to open a visitor another transaction created meanwhile (the batch is then written job by job)', async () => {
    const channel = await setUp(`conflict ${++run}`);
    const [job] = jobsFor(channel, [textMessage('known', 'thought new')]);
    await expect(inTransaction(t.app.ctx.db, (tx) => openNewSenders(tx, [job], [2]))).rejects.toBeInstanceOf(NewSenderConflict);
  });

  describe('when the account routes new chats', () => {
    let accountId: number;
    let agents: number[];
    const routeBy = (mode: 'round_robin' | 'least_busy') => async () => {
      await t.app.ctx.db
        .insertInto('routing_settings')
        .values({ account_id: accountId, mode, offer_timeout_seconds: 30, everyone_after_seconds: 60, updated_at: 1 })
        .execute();
    };

    beforeAll(async () => {
      const db = t.app.ctx.db;
      accountId = (await db.selectFrom('accounts').select('id').executeTakeFirstOrThrow()).id;
      for (const n of [1, 2, 3]) await addAgent(t, { email: `router-${n}@example.com` });
      agents = (await db.selectFrom('agents').select('id').where('account_id', '=', accountId).orderBy('id').execute()).map((a) => a.id);
      await db.updateTable('agents').set({ status: 'online', active: 1 }).where('account_id', '=', accountId).execute();
      // The first agent takes one chat at a time: a pick that did not count the batch's earlier offers would give it a second.
      await db.updateTable('agents').set({ max_chats: 1 }).where('id', '=', agents[0]).execute();
    });
    afterEach(async () => {
      await t.app.ctx.db.deleteFrom('routing_settings').where('account_id', '=', accountId).execute();
    });

    it('offers a batch of new senders their chats as one at a time does (least busy, an agent at its limit)', async () => {
      const list = Array.from({ length: 12 }, (_, i) => withId({ id: `routed-${i % 6}`, ...details, name: `Routed ${i % 6}` }, `message ${i}`, `r-${i}`));
      const { one, all, statements, a, b } = await bothWays(list, routeBy('least_busy'));
      expect(all).toEqual(one);
      expect(b).toEqual(a);
      expect(b.offers).toHaveLength(6);
      const offered = b.offers.map((o) => o.agent_id);
      expect(offered.filter((id) => id === agents[0])).toHaveLength(1);
      expect(new Set(offered)).toEqual(new Set(agents)); // 4 agents, 6 chats: everyone offered one, two of them a second
      expect(b.events.filter((e) => e.type === 'chat.offered')).toHaveLength(6);
      // Together, plus one pick per chat and one insert for the offers.
      expect(statements.all).toBeLessThanOrEqual(8 + 6 + 1 + (isPostgres(t.app.ctx.db) ? 0 : 12));
    });

    it('writes what its jobs write one by one, mixed with senders written job by job (round robin)', async () => {
      const { one, all, a, b } = await bothWays(bodies(), routeBy('round_robin'));
      expect(all).toEqual(one);
      // The senders written alone (typing, changed details, a finished chat) are offered theirs
      // before the batch's new senders, where job by job offers them in arrival order: the same
      // agents in all, but not always to the same chat.
      const agentsOf = (x: typeof a) => x.offers.map((o) => o.agent_id).sort();
      expect(agentsOf(b)).toEqual(agentsOf(a));
      const withoutAgents = (x: typeof a) => ({ ...x, offers: x.offers.map(({ agent_id: _a, tried_json: _t, ...o }) => o) });
      expect(withoutAgents(b)).toEqual(withoutAgents(a));
      expect(b.offers.map((o) => o.chat).sort()).toEqual([
        '77#1',
        'finished#2',
        'new-a#1',
        'new-b#1',
        'new-late#1',
        'new-mixed#1',
        'new-twice#1',
        'new-typist#1',
      ]);
    });

    it('writes a chat.offered after chat.created only when an agent could be offered it', async () => {
      const db = t.app.ctx.db;
      await db.updateTable('agents').set({ status: 'offline' }).where('account_id', '=', accountId).execute();
      try {
        const list = [withId({ id: 'nobody-1', ...details }, 'hello', 'x-1'), withId({ id: 'nobody-2', ...details }, 'hello', 'x-2')];
        const { a, b } = await bothWays(list, routeBy('round_robin'));
        expect(b).toEqual(a);
        expect(b.offers.map((o) => o.agent_id)).toEqual([null, null]); // looked at again later (the routing worker)
        expect(b.events.filter((e) => e.chat?.startsWith('nobody')).map((e) => e.type)).toEqual([
          'chat.created',
          'message.created',
          'chat.created',
          'message.created',
        ]);
      } finally {
        await db.updateTable('agents').set({ status: 'online' }).where('account_id', '=', accountId).execute();
      }
    });
  });
});
