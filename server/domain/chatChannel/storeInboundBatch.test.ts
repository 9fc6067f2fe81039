import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChatChannel, postInbound, textMessage } from '../../../test/helpers/chatChannel.js';
import { createTestApp, type TestApp } from '../../../test/helpers/testApp.js';
import { inTransaction } from '../../db/database.js';
import type { Channel } from '../../db/schema.js';
import { contentHash } from './dedupInbound.js';
import { parseInbound } from './parseInbound.js';
import type { InboundJob } from './inboundJob.js';
import { storeInboundBatch } from './storeInboundBatch.js';

/**
 * A batch must write exactly what its jobs write one by one by the rule of a
 * visitor's message (storeEach, `together: false`), in the same order: the same jobs go to two channels that start alike, one written job by
 * job, the other as one batch, and both are compared.
 */
describe('storeInboundBatch', () => {
  let t: TestApp;
  let alone: Channel;
  let batched: Channel;

  // Each channel starts alike: visitors with an open chat, one whose chat is finished, one blacklisted.
  const setUp = async (path: string): Promise<Channel> => {
    const channel = { path } as Parameters<typeof postInbound>[1];
    for (const id of ['known', 'known-2', 'typist', 'finished', 'banned', 'deduped']) {
      expect((await postInbound(t, channel, textMessage(id, `${id} first`, { name: `Name ${id}`, email: `${id}@example.com` }))).statusCode).toBe(200);
    }
    // A message.id claimed long before the batch (the key has expired: its repeat is stored again)…
    expect((await postInbound(t, channel, { sender: { id: 'deduped' }, message: { type: 'text', text: 'earlier', id: 'm-0' } })).statusCode).toBe(200);
    const db = t.app.ctx.db;
    const row = await db.selectFrom('channels').selectAll().where('public_id', '=', path.split('/').pop()!).executeTakeFirstOrThrow();
    const visitorOf = (id: string) => db.selectFrom('visitors').select('id').where('channel_id', '=', row.id).where('external_id', '=', id);
    await db.updateTable('chats').set({ status: 'finished', finished_at: 1 }).where('visitor_id', '=', visitorOf('finished')).execute();
    await db.updateTable('visitors').set({ blacklisted: 1 }).where('channel_id', '=', row.id).where('external_id', '=', 'banned').execute();
    // … and one claimed a second before it, for a message of the open chat (its repeat is a duplicate).
    const claimed = parseInbound(JSON.stringify(preClaimed));
    const lastOfDeduped = await db
      .selectFrom('messages')
      .innerJoin('chats', 'chats.id', 'messages.chat_id')
      .select((eb) => eb.fn.max('messages.id').as('id'))
      .where('chats.visitor_id', '=', visitorOf('deduped'))
      .executeTakeFirstOrThrow();
    if (claimed.kind !== 'message') throw new Error('a message');
    await db
      .insertInto('inbound_dedup')
      .values({
        account_id: row.account_id,
        channel_id: row.id,
        sender_id: 'deduped',
        message_external_id: 'm-9',
        content_hash: contentHash(claimed.message),
        message_id: lastOfDeduped.id,
        created_at: 1_700_000_000_000 - 1000,
      })
      .execute();
    return row;
  };
  const preClaimed = { sender: { id: 'deduped' }, message: { type: 'text', text: 'claimed', id: 'm-9' } };

  const jobsFor = (channel: Channel): InboundJob[] =>
    [
      textMessage('known', 'known 2', { name: 'Name known' }),
      textMessage('newcomer', 'hello', { name: 'New' }),
      textMessage('known', 'known 3'),
      { sender: { id: 'typist' }, message: { type: 'typein' } },
      textMessage('known-2', 'known-2 2', { name: 'Renamed' }),
      textMessage('banned', 'let me in'),
      { sender: { id: 'deduped' }, message: { type: 'text', text: 'once', id: 'm-1' } },
      { sender: { id: 'deduped' }, message: { type: 'text', text: 'once', id: 'm-1' } },
      { sender: { id: 'deduped' }, message: { type: 'text', text: 'earlier', id: 'm-0' } },
      preClaimed,
      // m-1 again with other content: deduped's ids are no identifiers from now on…
      { sender: { id: 'deduped' }, message: { type: 'text', text: 'not the same', id: 'm-1' } },
      { sender: { id: 'known' }, message: { type: 'text', text: 'with an id', id: 'k-1' } },
      textMessage('finished', 'back again'),
      { sender: { id: 'known', name: 'Name known' }, message: { type: 'location', latitude: 48.85, longitude: 2.35 } },
      textMessage('newcomer', 'me again'),
      // … so a repeat of its first m-1 within the window, in the open chat, is stored.
      { sender: { id: 'deduped' }, message: { type: 'text', text: 'once', id: 'm-1' } },
    ].map((body, i) => ({ channel, req: parseInbound(JSON.stringify(body)), now: 1_700_000_000_000 + i }));

  /** What a channel holds, with ids replaced by what they name. */
  const snapshot = async (channel: Channel) => {
    const db = t.app.ctx.db;
    const visitors = await db.selectFrom('visitors').selectAll().where('channel_id', '=', channel.id).orderBy('external_id').execute();
    const byId = new Map(visitors.map((v) => [v.id, v.external_id]));
    const chats = await db.selectFrom('chats').selectAll().where('channel_id', '=', channel.id).orderBy('id').execute();
    const chatName = new Map(
      chats.map((c) => [c.id, `${byId.get(c.visitor_id)}#${chats.filter((o) => o.visitor_id === c.visitor_id && o.id <= c.id).length}`]),
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
    // Jobs of different visitors may be written in another order (they arrived together); each chat's own order must hold.
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
    // A sender marked as reusing its ids (visitors.inbound_ids_reused) never has its rows read again: the batch,
    // which claims in one statement, may leave them otherwise than job by job does.
    const marked = new Set(visitors.filter((v) => v.inbound_ids_reused).map((v) => v.external_id));
    return {
      // Each message.id claimed once, linked to the message it stored.
      dedup: dedup
        .filter((d) => !marked.has(d.sender_id))
        .map(({ channel_id: _c, account_id: _a, message_id, ...d }) => ({ ...d, message: message_id === null ? null : messageIds.get(message_id) })),
      visitors: visitors.map(({ id: _id, channel_id: _c, number: _n, updated_at: _u, token_hash: _t, ...v }) => v),
      chats: chats.map(({ id, visitor_id: _v, channel_id: _c, ...c }) => ({ ...c, name: chatName.get(id) })),
      messages: byChat(messages, (m) => m.chat_id).map(({ id: _id, chat_id, ...m }) => ({ ...m, chat: chatName.get(chat_id) })),
      events: byChat(events, (e) => e.chat_id).map((e) => {
        const data = JSON.parse(e.data_json) as { message?: { id: number; chat_id: number } };
        const message = data.message ? { ...data.message, id: messageIds.get(data.message.id), chat_id: chatName.get(data.message.chat_id) } : undefined;
        return { type: e.type, chat: chatName.get(e.chat_id!), seq: e.seq, ...(message ? { message } : {}) };
      }),
    };
  };

  beforeAll(async () => {
    t = await createTestApp({ workers: false, clock: () => 1_690_000_000_000 }); // both channels start with the same times
    alone = await setUp((await createChatChannel(t, { name: 'alone' })).path);
    batched = await setUp((await createChatChannel(t, { name: 'batched' })).path);
  });
  afterAll(async () => {
    await t.close();
  });

  it('writes what its jobs write one by one, with the same outcomes', async () => {
    const db = t.app.ctx.db;
    const one = await inTransaction(db, async (tx) => {
      const out = [];
      for (const job of jobsFor(alone)) out.push(...(await storeInboundBatch(tx, [job], { together: false })));
      return out;
    });
    const all = await inTransaction(db, (tx) => storeInboundBatch(tx, jobsFor(batched)));
    expect(all).toEqual(one);
    expect(one).toEqual([
      'stored',
      'stored',
      'stored',
      'typing',
      'stored',
      'suppressed',
      'stored',
      'duplicate',
      'stored',
      'duplicate',
      'stored',
      'stored',
      'stored',
      'stored',
      'stored',
      'stored',
    ]);
    const [a, b] = [await snapshot(alone), await snapshot(batched)];
    expect(b.messages).toHaveLength(a.messages.length);
    expect(b).toEqual(a);
  });
});
