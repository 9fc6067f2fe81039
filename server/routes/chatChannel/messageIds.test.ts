/**
 * A message answered 200 is never silently dropped (#32 items 1 and 2; the
 * rule in docs/CHAT-CHANNEL.md "message.id and retries"), tried with the three
 * kinds of client the real integrations are:
 *
 * - a bridge that sends one message.id on every message (a real Telegram
 *   bridge sends "Новое сообщение" on each): every message is stored, a
 *   repeated word included, and a second dialog after the first was finished
 *   opens a new chat with all its messages;
 * - a client with unique ids that retries: a retry within the window, while
 *   the chat is open, is stored once; after the window, or once the chat is
 *   finished, the same body is a new message;
 * - a client that sends no id: every message is stored.
 *
 * And typein/typeout change nothing but typing: the sender's details stay as
 * they were, and a typing-only unknown sender makes no visitor and uses up no
 * visitor number.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEDUP_WINDOW_MS } from '../../domain/chatChannel/dedupInbound.js';
import { createChatChannel, postInbound, type ChatChannel } from '../../../test/helpers/chatChannel.js';
import { bearer, createTestApp, testDialect, type TestApp } from '../../../test/helpers/testApp.js';

describe(`chat channel: message.id never drops a message (${testDialect()})`, () => {
  let t: TestApp;
  let channel: ChatChannel;
  let now = Date.now();

  const api = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: bearer(t.adminToken), ...(payload === undefined ? {} : { payload: payload as object }) });
  const send = async (sender: Record<string, unknown>, message: Record<string, unknown>) => {
    now += 1000;
    const res = await postInbound(t, channel, { sender, message });
    expect(res.statusCode).toBe(200);
  };
  const text = (senderId: string, body: string, id?: string) =>
    send({ id: senderId, name: senderId }, { type: 'text', text: body, ...(id === undefined ? {} : { id }) });
  /** Every chat of the sender, oldest first, with its texts. */
  const chatsOf = async (senderId: string): Promise<Array<{ id: number; status: string; texts: string[] }>> => {
    const rows = await t.app.ctx.db
      .selectFrom('chats')
      .innerJoin('visitors', 'visitors.id', 'chats.visitor_id')
      .select(['chats.id', 'chats.status'])
      .where('visitors.channel_id', '=', channel.id)
      .where('visitors.external_id', '=', senderId)
      .orderBy('chats.id')
      .execute();
    return Promise.all(
      rows.map(async (c) => ({
        id: c.id,
        status: c.status,
        texts: (await api('GET', `/chats/${c.id}`))
          .json<{ messages: Array<{ author: string; text?: string }> }>()
          .messages.filter((m) => m.author === 'visitor')
          .map((m) => m.text ?? ''),
      })),
    );
  };
  const finish = async (chatId: number) => {
    expect((await api('POST', `/chats/${chatId}/accept`)).statusCode).toBe(200);
    expect((await api('POST', `/chats/${chatId}/finish`, {})).statusCode).toBe(200);
  };

  beforeAll(async () => {
    t = await createTestApp({ clock: () => now });
    channel = await createChatChannel(t);
  });
  afterAll(async () => {
    await t.close();
  });

  describe('a bridge that sends one message.id on every message', () => {
    const ONE_ID = 'Новое сообщение';

    it('stores every message, the same word twice included', async () => {
      for (const body of ['Здравствуйте', 'да', 'мне нужна помощь', 'да']) await text('tg-1', body, ONE_ID);
      expect((await chatsOf('tg-1')).map((c) => c.texts)).toEqual([['Здравствуйте', 'да', 'мне нужна помощь', 'да']]);
    });

    it('opens a second dialog after the first was finished, with its opener and question', async () => {
      const [first] = await chatsOf('tg-1');
      await finish(first.id);
      await text('tg-1', 'Здравствуйте', ONE_ID);
      await text('tg-1', 'где мой заказ?', ONE_ID);
      const chats = await chatsOf('tg-1');
      expect(chats).toHaveLength(2);
      expect(chats[1]).toMatchObject({ status: 'pending', texts: ['Здравствуйте', 'где мой заказ?'] });
    });

    it('stores a repeat of the very first message when it is the second one, once the id came with other content', async () => {
      await text('tg-2', 'да', ONE_ID);
      await text('tg-2', 'нет', ONE_ID);
      await text('tg-2', 'да', ONE_ID);
      await text('tg-2', 'нет', ONE_ID);
      expect((await chatsOf('tg-2')).map((c) => c.texts)).toEqual([['да', 'нет', 'да', 'нет']]);
    });
  });

  describe('a client with unique ids that retries', () => {
    it('stores a retry within the window once, while the chat is open', async () => {
      await text('app-1', 'hello', 'u-1');
      await text('app-1', 'hello', 'u-1'); // its retry
      await text('app-1', 'my order', 'u-2');
      await text('app-1', 'my order', 'u-2'); // its retry
      await text('app-1', 'hello', 'u-1'); // a late retry, still within the window
      expect((await chatsOf('app-1')).map((c) => c.texts)).toEqual([['hello', 'my order']]);
    });

    it('stores the same body as a new message once the window is over', async () => {
      now += DEDUP_WINDOW_MS + 1;
      await text('app-1', 'hello', 'u-1');
      expect((await chatsOf('app-1')).map((c) => c.texts)).toEqual([['hello', 'my order', 'hello']]);
    });

    it('never lets a repeat reach across a finished chat', async () => {
      await text('app-2', 'start', 'v-1');
      const [first] = await chatsOf('app-2');
      await finish(first.id);
      await text('app-2', 'start', 'v-1'); // within the window, but the chat it repeats is finished
      const chats = await chatsOf('app-2');
      expect(chats.map((c) => c.texts)).toEqual([['start'], ['start']]);
      // In the new chat, a retry is a retry again.
      await text('app-2', 'start', 'v-1');
      expect((await chatsOf('app-2')).map((c) => c.texts)).toEqual([['start'], ['start']]);
    });
  });

  describe('a client that sends no message.id', () => {
    it('stores every message, repeats included', async () => {
      for (const body of ['ok', 'ok', 'ok']) await text('noid-1', body);
      expect((await chatsOf('noid-1')).map((c) => c.texts)).toEqual([['ok', 'ok', 'ok']]);
    });
  });

  describe('typein / typeout change nothing but typing', () => {
    const visitorOf = (senderId: string) =>
      t.app.ctx.db.selectFrom('visitors').selectAll().where('channel_id', '=', channel.id).where('external_id', '=', senderId).executeTakeFirst();

    it("leaves the sender's name, e-mail and phone as they were", async () => {
      await send({ id: 'typist', name: 'Ann', email: 'ann@example.com', phone: '+15550100100' }, { type: 'text', text: 'hi' });
      const before = await visitorOf('typist');
      for (const type of ['typein', 'typeout'])
        await send({ id: 'typist', name: 'Mallory', email: 'mallory@example.com', phone: '+15550100999', photo: 'https://evil.example/x.png' }, { type });
      const after = await visitorOf('typist');
      expect(after).toMatchObject({ name: 'Ann', email: 'ann@example.com', phone: '+15550100100', photo: null });
      expect(after!.updated_at).toBe(before!.updated_at);
    });

    it('makes no visitor for an unknown sender that only types, and uses up no visitor number', async () => {
      const numberBefore = (
        await t.app.ctx.db.selectFrom('accounts').select('next_visitor_number').where('id', '=', t.app.ctx.defaultAccountId).executeTakeFirstOrThrow()
      ).next_visitor_number;
      await send({ id: 'ghost', name: 'Ghost' }, { type: 'typein' });
      await send({ id: 'ghost', name: 'Ghost' }, { type: 'typeout' });
      expect(await visitorOf('ghost')).toBeUndefined();
      const numberAfter = (
        await t.app.ctx.db.selectFrom('accounts').select('next_visitor_number').where('id', '=', t.app.ctx.defaultAccountId).executeTakeFirstOrThrow()
      ).next_visitor_number;
      expect(numberAfter).toBe(numberBefore);
    });
  });
});
