import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChatChannel, postInbound, textMessage, type ChatChannel } from '../../../test/helpers/chatChannel.js';
import { bearer, createTestApp, testDialect, type TestApp } from '../../../test/helpers/testApp.js';
import { newVisitorRow } from '../visitors/insertVisitors.js';
import { parseInbound } from './parseInbound.js';
import { receiveInbound } from './receiveInbound.js';

/** Messages posted together share transactions (db/groupCommit.ts); each is still answered and stored as if alone. */
describe('chat channel: messages that arrive together', () => {
  let t: TestApp;
  let channel: ChatChannel;

  const messagesOf = async (senderId: string) => {
    const db = t.app.ctx.db;
    const rows = await db
      .selectFrom('messages')
      .innerJoin('chats', 'chats.id', 'messages.chat_id')
      .innerJoin('visitors', 'visitors.id', 'chats.visitor_id')
      .where('visitors.external_id', '=', senderId)
      .orderBy('messages.id')
      .select(['messages.text', 'chats.id as chat_id'])
      .execute();
    return rows;
  };
  const batchSizes = async () => {
    const metrics = await t.app.ctx.metrics.groupCommit.get();
    const sum = (outcome: string, name: string) =>
      metrics.values.filter((v) => v.labels.outcome === outcome && v.metricName === name).reduce((a, v) => a + v.value, 0);
    return { batches: sum('committed', 'parley_group_commit_batch_size_count'), jobs: sum('committed', 'parley_group_commit_batch_size_sum') };
  };

  beforeAll(async () => {
    t = await createTestApp();
    channel = await createChatChannel(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('stores every message of concurrent senders once, each sender in its order', async () => {
    const senders = Array.from({ length: 8 }, (_, i) => `together-${i}`);
    const perSender = 6;
    await Promise.all(
      senders.map(async (s) => {
        for (let i = 0; i < perSender; i++) expect((await postInbound(t, channel, textMessage(s, `${s} #${i}`))).statusCode).toBe(200);
      }),
    );
    for (const s of senders) {
      const rows = await messagesOf(s);
      expect(rows.map((r) => r.text)).toEqual(Array.from({ length: perSender }, (_, i) => `${s} #${i}`));
      expect(new Set(rows.map((r) => r.chat_id)).size).toBe(1); // one open chat per visitor, never two
    }
  });

  it('writes the messages submitted in one turn in fewer transactions than messages, answering each', async () => {
    const row = await t.app.ctx.db.selectFrom('channels').selectAll().where('id', '=', channel.id).executeTakeFirstOrThrow();
    const before = await batchSizes();
    const jobs = Array.from({ length: 16 }, (_, i) => parseInbound(JSON.stringify(textMessage(`turn-${i % 8}`, `turn #${i}`))));
    const outcomes = await Promise.all(jobs.map((req) => receiveInbound(t.app.ctx, { channel: row, req })));
    expect(outcomes).toEqual(jobs.map(() => 'stored'));
    const after = await batchSizes();
    expect(after.jobs - before.jobs).toBe(16);
    expect(after.batches - before.batches).toBe(1);
    for (let v = 0; v < 8; v++) expect((await messagesOf(`turn-${v}`)).map((r) => r.text)).toEqual([`turn #${v}`, `turn #${v + 8}`]);
  });

  it.skipIf(testDialect() !== 'postgres')(
    "stores a new sender's message alone when another transaction creates its visitor meanwhile (another instance)",
    async () => {
      const db = t.app.ctx.db;
      const row = await db.selectFrom('channels').selectAll().where('id', '=', channel.id).executeTakeFirstOrThrow();
      const accountId = row.account_id;
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      let inserted!: () => void;
      const insertedNow = new Promise<void>((r) => (inserted = r));
      // The other instance: the visitor inserted, its transaction still open.
      const other = db.transaction().execute(async (tx) => {
        await tx
          .insertInto('visitors')
          .values({
            ...newVisitorRow({ accountId, channelId: row.id, externalId: 'racer', details: { name: 'Racer' }, now: 1 }),
            number: 999_999,
          })
          .execute();
        inserted();
        await gate;
      });
      await insertedNow;
      // Not found by the batch's touch (uncommitted), then its insert meets the other's row.
      const outcome = receiveInbound(t.app.ctx, {
        channel: row,
        req: parseInbound(JSON.stringify(textMessage('racer', 'first from racer', { name: 'Racer' }))),
      });
      await new Promise((r) => setTimeout(r, 200));
      release();
      await other;
      expect(await outcome).toBe('stored');
      expect((await messagesOf('racer')).map((r) => r.text)).toEqual(['first from racer']);
    },
  );

  it('fails only the message the store refuses: the others of its transaction are stored, and nothing of it is', async () => {
    if (testDialect() === 'sqlite') {
      await sql`create trigger refuse_poison before insert on messages when new.text = 'poison' begin select raise(abort, 'refused'); end`.execute(
        t.app.ctx.db,
      );
    } else {
      await sql`create function refuse_poison() returns trigger language plpgsql as $$ begin raise exception 'refused'; end $$`.execute(t.app.ctx.db);
      await sql`create trigger refuse_poison before insert on messages for each row when (new.text = 'poison') execute function refuse_poison()`.execute(
        t.app.ctx.db,
      );
    }
    const posts = ['fine-a', 'poison', 'fine-b', 'fine-c'].map((text) => postInbound(t, channel, textMessage(`p-${text}`, text, { name: `P ${text}` })));
    const codes = (await Promise.all(posts)).map((r) => r.statusCode);
    expect(codes[0]).toBe(200);
    expect(codes[1]).toBeGreaterThanOrEqual(500);
    expect(codes.slice(2)).toEqual([200, 200]);
    for (const text of ['fine-a', 'fine-b', 'fine-c']) expect((await messagesOf(`p-${text}`)).map((r) => r.text)).toEqual([text]);
    // The refused message's visitor and chat were rolled back with it: no half-written record.
    const visitor = await t.app.ctx.db.selectFrom('visitors').select('id').where('external_id', '=', 'p-poison').executeTakeFirst();
    expect(visitor).toBeUndefined();
    const chats = (await t.app.inject({ method: 'GET', url: '/api/v1/chats', headers: bearer(t.adminToken) })).json<Array<{ visitor: { name: string } }>>();
    expect(chats.some((c) => c.visitor.name === 'P poison')).toBe(false);
  });
});
