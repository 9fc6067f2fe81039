/**
 * The chat channel reads what the customer system sent exactly as sent (#17
 * items 10–12): sender.id comes back unchanged as recipient.id, message.id
 * never drops a different message, and a body is data, never structure
 * (`__proto__` / `constructor` keys ignored, any Content-Type read as JSON).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChatChannel, postInbound, startCustomerEndpoint, textMessage, waitFor, type ChatChannel } from '../../../test/helpers/chatChannel.js';
import { bearer, createTestApp, type TestApp } from '../../../test/helpers/testApp.js';

describe('chat channel: what the customer sent, as sent', () => {
  let t: TestApp;
  let channel: ChatChannel;
  let endpoint: Awaited<ReturnType<typeof startCustomerEndpoint>>;

  const api = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: bearer(t.adminToken), ...(payload === undefined ? {} : { payload: payload as object }) });
  const chatOf = async (name: string) =>
    (await api('GET', '/chats')).json<Array<{ id: number; visitor: { name: string } }>>().find((c) => c.visitor.name === name);
  const textsOf = async (name: string): Promise<string[]> => {
    const chat = await chatOf(name);
    if (!chat) return [];
    return (await api('GET', `/chats/${chat.id}`)).json<{ messages: Array<{ text: string }> }>().messages.map((m) => m.text);
  };
  const counts = async () => {
    const db = t.app.ctx.db;
    const n = async (table: 'visitors' | 'messages') =>
      Number((await db.selectFrom(table).select(db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    return { visitors: await n('visitors'), messages: await n('messages') };
  };
  /** The agent replies in the chat of `name`; the body the customer endpoint received. */
  const replyTo = async (name: string, text: string): Promise<{ recipient: { id: unknown } }> => {
    const chat = await chatOf(name);
    const sent = await api('POST', `/chats/${chat!.id}/messages`, { type: 'text', text });
    expect(sent.statusCode).toBe(201);
    const id = String(sent.json<{ id: number }>().id);
    const req = await waitFor(() => endpoint.requests.find((r) => (JSON.parse(r.body) as { message?: { id?: string } }).message?.id === id));
    return JSON.parse(req.body) as { recipient: { id: unknown } };
  };

  beforeAll(async () => {
    t = await createTestApp();
    endpoint = await startCustomerEndpoint();
    channel = await createChatChannel(t, { webhook_url: endpoint.url });
  });
  afterAll(async () => {
    await t.close();
    await endpoint.close();
  });

  describe('recipient.id is sender.id unchanged (item 10)', () => {
    it.each([
      ['a padded string', '  42 ', 'Padded'],
      ['a string with inner and trailing spaces', 'user 7\t', 'Tabbed'],
      ['a number', 4242, 'Numbered'],
      ['a string of digits', '0042', 'Zeros'],
    ])('%s comes back exactly as sent', async (_what, id, name) => {
      expect((await postInbound(t, channel, textMessage(id, 'hello', { name }))).statusCode).toBe(200);
      expect((await replyTo(name, `to ${name}`)).recipient.id).toStrictEqual(id);
    });

    it('matches visitors by the exact id: "  42 " and "42" are two visitors, each answered with its own id', async () => {
      await postInbound(t, channel, textMessage('  77 ', 'padded', { name: 'Pad77' }));
      await postInbound(t, channel, textMessage('77', 'bare', { name: 'Bare77' }));
      await postInbound(t, channel, textMessage('  77 ', 'padded again'));
      expect(await textsOf('Pad77')).toEqual(['padded', 'padded again']);
      expect(await textsOf('Bare77')).toEqual(['bare']);
      expect((await replyTo('Pad77', 'p')).recipient.id).toBe('  77 ');
      expect((await replyTo('Bare77', 'b')).recipient.id).toBe('77');
    });

    it('still refuses a blank sender.id (spec: empty is not transmitted)', async () => {
      const before = await counts();
      const res = await postInbound(t, channel, textMessage('   ', 'hello'));
      expect(res.statusCode).toBe(400);
      expect(await counts()).toEqual(before);
    });
  });

  describe('message.id never drops a different message (item 11; the rule of docs/CHAT-CHANNEL.md)', () => {
    it('a retry (same sender, id and content) is stored once; the same id with other content is stored, and marks the sender', async () => {
      const send = (text: string, sender = 'dup-1', extra: Record<string, unknown> = {}) =>
        postInbound(t, channel, {
          sender: { id: sender, name: sender === 'dup-1' ? 'Dupper' : 'Dupper2' },
          message: { type: 'text', id: 'm-1', text, ...extra },
        });
      // The second 'first' is a retry; 'second' reuses m-1, so from then on m-1 drops nothing.
      for (const text of ['first', 'first', 'second', 'first', 'second']) expect((await send(text)).statusCode).toBe(200);
      expect(await textsOf('Dupper')).toEqual(['first', 'second', 'first', 'second']);
      // Another sender's message.id is its own.
      expect((await send('first', 'dup-2')).statusCode).toBe(200);
      expect((await send('first', 'dup-2')).statusCode).toBe(200);
      expect(await textsOf('Dupper2')).toEqual(['first']);
    });

    it('compares media content too: the same id with another file or caption is stored, a repeat is not', async () => {
      const photo = (sender: string, file: string, text?: string) =>
        postInbound(t, channel, { sender: { id: sender, name: sender }, message: { type: 'photo', id: 'p-1', file, text } });
      const filesOf = async (name: string) => {
        const chat = await chatOf(name);
        return (await api('GET', `/chats/${chat!.id}`))
          .json<{ messages: Array<{ file: string; text?: string }> }>()
          .messages.map((m) => [m.file, m.text ?? null]);
      };
      await photo('MediaSame', 'https://cdn.example.com/a.png');
      await photo('MediaSame', 'https://cdn.example.com/a.png');
      expect(await filesOf('MediaSame')).toEqual([['https://cdn.example.com/a.png', null]]);
      await photo('MediaFile', 'https://cdn.example.com/a.png');
      await photo('MediaFile', 'https://cdn.example.com/b.png');
      expect(await filesOf('MediaFile')).toEqual([
        ['https://cdn.example.com/a.png', null],
        ['https://cdn.example.com/b.png', null],
      ]);
      await photo('MediaCaption', 'https://cdn.example.com/b.png');
      await photo('MediaCaption', 'https://cdn.example.com/b.png', 'caption');
      expect(await filesOf('MediaCaption')).toEqual([
        ['https://cdn.example.com/b.png', null],
        ['https://cdn.example.com/b.png', 'caption'],
      ]);
    });

    it('concurrent retries of one message store it once; concurrent different messages under one id are all stored', async () => {
      const body = (sender: string, text: string) => ({ sender: { id: sender, name: sender }, message: { type: 'text', id: 'r-1', text } });
      const results = await Promise.all([
        ...Array.from({ length: 4 }, () => postInbound(t, channel, body('Racer', 'same'))),
        ...['a', 'b', 'c'].map((x) => postInbound(t, channel, body('Racer2', x))),
      ]);
      expect(results.map((r) => r.statusCode)).toEqual(Array(7).fill(200));
      expect(await textsOf('Racer')).toEqual(['same']);
      expect((await textsOf('Racer2')).sort()).toEqual(['a', 'b', 'c']);
    });
  });

  describe('a body is data, never structure (item 12)', () => {
    it.each([
      ['a sender only under __proto__', '{"__proto__":{"sender":{"id":"proto-1"}},"message":{"type":"text","text":"hi"}}'],
      ['a sender only under an escaped __proto__', '{"\\u005f_proto__":{"sender":{"id":"proto-2"}},"message":{"type":"text","text":"hi"}}'],
      ['a sender only under constructor.prototype', '{"constructor":{"prototype":{"sender":{"id":"proto-3"}}},"message":{"type":"text","text":"hi"}}'],
      ['a sender only under constructor', '{"constructor":{"sender":{"id":"proto-4"}},"message":{"type":"text","text":"hi"}}'],
      ['sender.id only under sender.__proto__', '{"sender":{"__proto__":{"id":"proto-5"}},"message":{"type":"text","text":"hi"}}'],
      ['message.type only under message.__proto__', '{"sender":{"id":"proto-6"},"message":{"__proto__":{"type":"text","text":"hi"}}}'],
      ['message.text only under message.constructor', '{"sender":{"id":"proto-7"},"message":{"type":"text","constructor":{"text":"hi"}}}'],
    ])('refuses %s with 400, storing nothing', async (_what, body) => {
      const before = await counts();
      const res = await postInbound(t, channel, body);
      expect(res.statusCode).toBe(400);
      expect(typeof res.json<{ error: { code: unknown } }>().error.code).toBe('number');
      expect(await counts()).toEqual(before);
    });

    it('ignores __proto__ and constructor keys beside the real fields', async () => {
      const body =
        '{"sender":{"id":"proto-ok","name":"ProtoOk","__proto__":{"name":"Evil","blacklisted":true},"constructor":{"name":"Evil"}},' +
        '"message":{"type":"text","text":"kept","constructor":{"prototype":{"text":"evil"}}},"__proto__":{"message":{"type":"photo"}}}';
      expect((await postInbound(t, channel, body)).statusCode).toBe(200);
      expect(await textsOf('ProtoOk')).toEqual(['kept']);
      expect(({} as Record<string, unknown>).blacklisted).toBeUndefined();
    });

    it.each([';;;', '', 'application/json;;;', 'text/plain; charset=', '/'])('reads the body as JSON with Content-Type %j', async (contentType) => {
      const name = `CT ${JSON.stringify(contentType)}`;
      const res = await postInbound(t, channel, textMessage(`ct-${contentType}`, 'typed', { name }), { 'content-type': contentType });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ result: 'ok' });
      expect(await textsOf(name)).toEqual(['typed']);
    });
  });
});

describe('the chat channel in /openapi.json (item 13)', () => {
  it('carries the inbound body schema, its answers, and the status route', async () => {
    const t = await createTestApp({ workers: false });
    try {
      type Op = { requestBody?: { content: Record<string, { schema: { properties: Record<string, unknown> } }> }; responses: Record<string, unknown> };
      const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json<{ paths: Record<string, Record<string, Op>> }>();
      const post = doc.paths['/wh/{secret}/{publicId}'].post;
      const schemas = Object.values(post.requestBody!.content).map((c) => c.schema);
      expect(schemas.length).toBeGreaterThan(0);
      const body = schemas[0];
      expect(Object.keys(body.properties)).toEqual(['sender', 'message']);
      const text = JSON.stringify(body);
      for (const field of [
        'id',
        'name',
        'phone',
        'email',
        'photo',
        'url',
        'invite',
        'text',
        'file',
        'file_name',
        'file_size',
        'thumb',
        'latitude',
        'longitude',
      ])
        expect(text).toContain(`"${field}"`);
      for (const type of ['text', 'video', 'audio', 'voice', 'photo', 'sticker', 'document', 'location', 'typein', 'typeout'])
        expect(text).toContain(`"enum":["${type}"]`);
      expect(Object.keys(post.responses)).toEqual(expect.arrayContaining(['200', '400', '404']));
      expect(doc.paths['/wh/{secret}/{publicId}/status'].get).toBeDefined();
    } finally {
      await t.close();
    }
  });
});
