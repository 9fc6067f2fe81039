import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChatChannel, postInbound, textMessage, type ChatChannel } from '../../../test/helpers/chatChannel.js';
import { bearer, createTestApp, type TestApp } from '../../../test/helpers/testApp.js';

describe('chat channel inbound (spec A, docs/CHAT-CHANNEL.md)', () => {
  let t: TestApp;
  let channel: ChatChannel;

  const counts = async () => {
    const db = t.app.ctx.db;
    const [v, c, m] = await Promise.all([
      db.selectFrom('visitors').select(db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      db.selectFrom('chats').select(db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      db.selectFrom('messages').select(db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { visitors: Number(v.n), chats: Number(c.n), messages: Number(m.n) };
  };
  const chatsOf = async (status?: string) =>
    (await t.app.inject({ method: 'GET', url: `/api/v1/chats${status ? `?status=${status}` : ''}`, headers: bearer(t.adminToken) })).json();
  const chatDetail = async (id: number) => (await t.app.inject({ method: 'GET', url: `/api/v1/chats/${id}`, headers: bearer(t.adminToken) })).json();
  const chatOfSender = async (name: string) => (await chatsOf()).find((c: { visitor: { name: string } }) => c.visitor.name === name);

  beforeAll(async () => {
    t = await createTestApp();
    channel = await createChatChannel(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers the status as a bare 0 or 1 following the agents presence', async () => {
    const off = await t.app.inject({ method: 'GET', url: `${channel.path}/status` });
    expect(off.statusCode).toBe(200);
    expect(off.headers['content-type']).toMatch(/^text\/plain/);
    expect(off.body).toBe('0');
    await t.app.inject({ method: 'PUT', url: '/api/v1/me/status', headers: bearer(t.adminToken), payload: { status: 'online' } });
    expect((await t.app.inject({ method: 'GET', url: `${channel.path}/status` })).body).toBe('1');
    await t.app.inject({ method: 'PUT', url: '/api/v1/me/status', headers: bearer(t.adminToken), payload: { status: 'away' } });
    expect((await t.app.inject({ method: 'GET', url: `${channel.path}/status` })).body).toBe('0');
  });

  it('answers 404 for an unknown channel or a wrong random string, and stores nothing', async () => {
    const before = await counts();
    const [, , secret, publicId] = channel.path.split('/');
    for (const path of [`/wh/${secret}/nochannel`, `/wh/wrong${secret}/${publicId}`, `/wh/${secret.slice(0, -1)}/${publicId}`]) {
      expect((await t.app.inject({ method: 'GET', url: `${path}/status` })).statusCode).toBe(404);
      const res = await t.app.inject({ method: 'POST', url: path, payload: textMessage('x', 'hi') });
      expect(res.statusCode).toBe(404);
    }
    expect(await counts()).toEqual(before);
  });

  it('accepts a text message whatever the Content-Type and opens a pending chat', async () => {
    const body = JSON.stringify(textMessage('u-1', 'Hello there', { name: 'Ann', email: 'ann@example.com' }));
    for (const headers of [{ 'content-type': 'text/plain' }, {}, { 'content-type': 'application/x-www-form-urlencoded' }]) {
      const res = await t.app.inject({ method: 'POST', url: channel.path, headers, payload: body });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ result: 'ok' });
    }
    const chat = await chatOfSender('Ann');
    expect(chat.status).toBe('pending');
    expect(chat.visitor).toMatchObject({ name: 'Ann', email: 'ann@example.com', number: expect.any(Number) });
    const detail = await chatDetail(chat.id);
    expect(detail.messages.map((m: { text: string }) => m.text)).toEqual(['Hello there', 'Hello there', 'Hello there']);
    expect(detail.messages[0]).toMatchObject({ author: 'visitor', type: 'text', chat_id: chat.id, created_at: expect.any(Number) });
  });

  it('cuts text at 1000 characters without splitting a character', async () => {
    const long = '😀'.repeat(1200);
    expect((await postInbound(t, channel, textMessage('u-long', long, { name: 'Long' }))).statusCode).toBe(200);
    const detail = await chatDetail((await chatOfSender('Long')).id);
    expect(Array.from(detail.messages[0].text as string)).toHaveLength(1000);
  });

  it.each([
    ['not JSON', '{"sender":', 'invalid_json'],
    ['an empty body', '', 'invalid_json'],
    ['a JSON array', '[]', 'invalid_message'],
    ['no sender', { message: { type: 'text', text: 'x' } }, 'missing_sender_id'],
    ['no sender.id', { sender: { name: 'x' }, message: { type: 'text', text: 'x' } }, 'missing_sender_id'],
    ['an empty sender.id', { sender: { id: '' }, message: { type: 'text', text: 'x' } }, 'missing_sender_id'],
    ['an object sender.id', { sender: { id: { a: 1 } }, message: { type: 'text', text: 'x' } }, 'missing_sender_id'],
    ['no message', { sender: { id: 'a' } }, 'invalid_message'],
    ['an unknown message.type', { sender: { id: 'a' }, message: { type: 'fax', text: 'x' } }, 'invalid_message'],
    ['a text message without text', { sender: { id: 'a' }, message: { type: 'text' } }, 'invalid_message'],
    ['a photo without file', { sender: { id: 'a' }, message: { type: 'photo', file_name: 'a.png', file_size: 3 } }, 'invalid_message'],
    ['a document with an ftp file', { sender: { id: 'a' }, message: { type: 'document', file: 'ftp://x/y.pdf' } }, 'invalid_message'],
    ['a location without latitude', { sender: { id: 'a' }, message: { type: 'location', longitude: 2 } }, 'invalid_message'],
    ['a location with text coordinates', { sender: { id: 'a' }, message: { type: 'location', latitude: 'north', longitude: 2 } }, 'invalid_message'],
  ])('refuses %s with 400 and a numeric error code, storing nothing', async (_name, body, _code) => {
    const before = await counts();
    const res = await postInbound(t, channel, body, { 'content-type': 'application/json' });
    expect(res.statusCode).toBe(400);
    const json = res.json();
    expect(typeof json.error.code).toBe('number');
    expect(typeof json.error.message).toBe('string');
    expect(json.error.message.length).toBeGreaterThan(10);
    expect(await counts()).toEqual(before);
  });

  it('drops optional fields with bad values and keeps the message', async () => {
    const res = await postInbound(t, channel, {
      sender: { id: 'u-photo', name: 'Pat', photo: 'javascript:alert(1)', extra_field: true },
      message: { type: 'text', text: 'hi', unknown: 1 },
    });
    expect(res.statusCode).toBe(200);
    const chat = await chatOfSender('Pat');
    expect(chat.visitor.photo).toBeNull();
  });

  it.each([
    // Kept as text (#32 item 6: a mobile app sends 'support.ua mobile'); the agent app links only http(s) (e2e).
    ['support.ua mobile', 'support.ua mobile'],
    ['javascript:alert(1)', 'javascript:alert(1)'],
    ['shop.example.com/cart', 'shop.example.com/cart'],
    ['https://shop.example.com/cart?x=1', 'https://shop.example.com/cart?x=1'],
    ['   ', null],
  ])('keeps sender.url %s as text', async (url, stored) => {
    const name = `Url ${url.length}`;
    const res = await postInbound(t, channel, { sender: { id: `u-url-${url.length}`, name, url }, message: { type: 'text', text: 'hi' } });
    expect(res.statusCode).toBe(200);
    const chat = await chatOfSender(name);
    expect(chat.visitor.url).toBe(stored);
  });

  it('stores every multimedia type with its fields, file_name and file_size optional', async () => {
    const types = ['video', 'audio', 'voice', 'photo', 'sticker', 'document'];
    for (const type of types) {
      const res = await postInbound(t, channel, {
        sender: { id: 'u-media', name: 'Media' },
        message: {
          type,
          file: `https://cdn.example.com/f.${type}`,
          file_name: `f.${type}`,
          file_size: 1234,
          thumb: 'https://cdn.example.com/t.png',
          duration: 5,
          text: 'caption',
        },
      });
      expect(res.statusCode).toBe(200);
    }
    expect(
      (await postInbound(t, channel, { sender: { id: 'u-media' }, message: { type: 'photo', file: 'https://cdn.example.com/bare.png' } })).statusCode,
    ).toBe(200);
    expect((await postInbound(t, channel, { sender: { id: 'u-media' }, message: { type: 'location', latitude: 48.85, longitude: '2.35' } })).statusCode).toBe(
      200,
    );
    const detail = await chatDetail((await chatOfSender('Media')).id);
    expect(detail.messages.map((m: { type: string }) => m.type)).toEqual([...types, 'photo', 'location']);
    expect(detail.messages[0]).toMatchObject({
      file: 'https://cdn.example.com/f.video',
      file_name: 'f.video',
      file_size: 1234,
      thumb: 'https://cdn.example.com/t.png',
      duration: 5,
      text: 'caption',
    });
    expect(detail.messages[6]).toMatchObject({ file: 'https://cdn.example.com/bare.png' });
    expect(detail.messages[6].file_name).toBeUndefined();
    expect(detail.messages[7]).toMatchObject({ latitude: 48.85, longitude: 2.35 });
  });

  it('stores a repeated message.id from the same sender once', async () => {
    const body = { sender: { id: 42, name: 'Dup' }, message: { type: 'text', text: 'once', id: 'm-1' } };
    expect((await postInbound(t, channel, body)).statusCode).toBe(200);
    expect((await postInbound(t, channel, body)).statusCode).toBe(200);
    const other = { sender: { id: 43, name: 'Dup2' }, message: { type: 'text', text: 'once', id: 'm-1' } };
    expect((await postInbound(t, channel, other)).statusCode).toBe(200);
    expect((await chatDetail((await chatOfSender('Dup')).id)).messages).toHaveLength(1);
    expect((await chatDetail((await chatOfSender('Dup2')).id)).messages).toHaveLength(1);
  });

  it('gives visitors sequential numbers', async () => {
    const numbers: number[] = [];
    for (const id of ['seq-a', 'seq-b', 'seq-c']) {
      await postInbound(t, channel, textMessage(id, 'hi', { name: id }));
      numbers.push((await chatOfSender(id)).visitor.number);
    }
    expect(numbers[1]).toBe(numbers[0] + 1);
    expect(numbers[2]).toBe(numbers[1] + 1);
  });

  it('takes typing as an event, never as a message', async () => {
    await postInbound(t, channel, textMessage('u-typing', 'first', { name: 'Typer' }));
    const chat = await chatOfSender('Typer');
    expect((await postInbound(t, channel, { sender: { id: 'u-typing' }, message: { type: 'typein' } })).statusCode).toBe(200);
    expect((await postInbound(t, channel, { sender: { id: 'u-typing' }, message: { type: 'typeout', text: 'ignored' } })).statusCode).toBe(200);
    expect((await chatDetail(chat.id)).messages).toHaveLength(1);
    const events = await t.app.ctx.db
      .selectFrom('events')
      .select(['type', 'data_json'])
      .where('chat_id', '=', chat.id)
      .where('type', '=', 'typing')
      .orderBy('id')
      .execute();
    expect(events.map((e) => JSON.parse(e.data_json).typing)).toEqual([true, false]);
  });

  it('updates the visitor from later messages and records chat.updated', async () => {
    await postInbound(t, channel, textMessage('u-upd', 'one', { name: 'Before' }));
    const chat = await chatOfSender('Before');
    await postInbound(t, channel, textMessage('u-upd', 'two', { name: 'After', phone: '+15550100199' }));
    const detail = await chatDetail(chat.id);
    expect(detail.visitor).toMatchObject({ name: 'After', phone: '+15550100199' });
    const updates = await t.app.ctx.db.selectFrom('events').select('data_json').where('chat_id', '=', chat.id).where('type', '=', 'chat.updated').execute();
    expect(updates.map((e) => JSON.parse(e.data_json).change)).toContain('visitor_updated');
  });
});

describe('NUL characters (PostgreSQL cannot store them)', () => {
  let t: TestApp;
  let channel: ChatChannel;
  beforeAll(async () => {
    t = await createTestApp({ workers: false });
    channel = await createChatChannel(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('are dropped from bodies, queries and path parameters instead of failing', async () => {
    const res = await postInbound(t, channel, { sender: { id: 'nul\u0000id', name: 'N\u0000ul' }, message: { type: 'text', text: 'he\u0000llo' } });
    expect(res.statusCode).toBe(200);
    const list = await t.app.inject({ method: 'GET', url: '/api/v1/chats?q=he%00llo', headers: bearer(t.adminToken) });
    expect(list.statusCode).toBe(200);
    expect(list.json()[0].visitor.name).toBe('Nul');
    for (const url of ['/wh/%00/%00', `${channel.path}%00/status`, '/widget/api/%00/session']) {
      const r = await t.app.inject({
        method: url.endsWith('session') ? 'POST' : 'GET',
        url,
        payload: url.endsWith('session') ? { page: { url: 'https://x.example/' } } : undefined,
      });
      expect(r.statusCode, url).toBeLessThan(500);
    }
    const agent = await t.app.inject({
      method: 'POST',
      url: '/api/v1/agents',
      headers: bearer(t.adminToken),
      payload: { name: 'A\u0000gent', email: 'nul@example.com', password: 'nul-password-1', role: 'agent' },
    });
    expect(agent.statusCode).toBe(201);
    expect(agent.json().name).toBe('Agent');
  });
});
