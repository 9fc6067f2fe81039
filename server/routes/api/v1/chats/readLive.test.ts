/**
 * Reading a chat reaches the agent's other devices live (#20): POST
 * /chats/:id/read that moves the agent's chat_reads row records `chat.read`,
 * which every stream of that agent gets (so another device clears the chat's
 * unread badge without a reload) and no other agent's, administrators
 * included. It is replayed after a cursor like any event, belongs to no
 * chat's sequence, and a read that moves nothing sends nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAgent } from '../../../../../test/helpers/accounts.js';
import { createChatChannel, postInbound, textMessage, type ChatChannel } from '../../../../../test/helpers/chatChannel.js';
import { allRelayed, listen, StreamClient, streamUrl, type Frame } from '../../../../../test/helpers/realtime.js';
import { bearer, createTestApp, type TestApp } from '../../../../../test/helpers/testApp.js';

describe('chat.read: reading on one device clears the unread count on the others', () => {
  let t: TestApp;
  let base: string;
  let channel: ChatChannel;
  let ann: { id: number; token: string };
  let annPhone: string;
  let ben: { id: number; token: string };
  const clients: StreamClient[] = [];

  const api = (method: 'GET' | 'POST', url: string, token: string, payload?: unknown) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as object }) });
  const open = async (token: string, cursor?: number): Promise<StreamClient> => {
    const c = await StreamClient.ready(streamUrl(base, token, cursor));
    clients.push(c);
    return c;
  };
  const reads = (c: StreamClient): Frame[] => c.events().filter((f) => f.type === 'chat.read');
  /** A chat with `n` visitor messages: its id and its messages' ids, oldest first. */
  const chatWith = async (sender: string, n: number): Promise<{ id: number; messages: number[] }> => {
    for (let i = 1; i <= n; i++) expect((await postInbound(t, channel, textMessage(sender, `line ${i}`, { name: sender }))).statusCode).toBe(200);
    const row = (await api('GET', '/chats?status=pending', ann.token))
      .json<Array<{ id: number; visitor: { name: string } }>>()
      .find((c) => c.visitor.name === sender)!;
    const chat = (await api('GET', `/chats/${row.id}`, ann.token)).json<{ messages: Array<{ id: number }> }>();
    return { id: row.id, messages: chat.messages.map((m) => m.id) };
  };
  /** A visitor message every socket sees: once it arrived, anything recorded before it has too. */
  const marker = async (sockets: StreamClient[], text: string): Promise<void> => {
    expect((await postInbound(t, channel, textMessage('marker', text, { name: 'Marker' }))).statusCode).toBe(200);
    for (const s of sockets) await s.until((c) => c.events().some((f) => f.type === 'message.created' && (f.data.message as { text?: string }).text === text));
  };

  beforeAll(async () => {
    t = await createTestApp();
    base = await listen(t.app);
    ann = await addAgent(t, { email: 'ann@example.com', name: 'Ann' });
    annPhone = await t.login('ann@example.com', 'agent-password-1');
    ben = await addAgent(t, { email: 'ben@example.com', name: 'Ben' });
    channel = await createChatChannel(t, { agent_ids: [] });
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await t.close();
  });

  it("goes to every stream of the reading agent and to no other agent's, administrators included", async () => {
    const laptop = await open(ann.token);
    const phone = await open(annPhone);
    const other = await open(ben.token);
    const admin = await open(t.adminToken);
    const chat = await chatWith('Reader One', 3);
    const seqBefore = (await t.app.ctx.db.selectFrom('chats').select('last_seq').where('id', '=', chat.id).executeTakeFirstOrThrow()).last_seq;

    const res = await api('POST', `/chats/${chat.id}/read`, ann.token);
    expect(res.statusCode).toBe(200);
    const expected = { chat_id: chat.id, agent_id: ann.id, last_read_message_id: chat.messages[2], unread_count: 0 };
    for (const device of [laptop, phone]) {
      await device.until((c) => reads(c).length === 1);
      const [frame] = reads(device);
      expect(frame.data).toEqual(expected);
      expect(typeof frame.cursor).toBe('number');
      // One agent's state: no place in the chat's sequence, which other agents and the visitor follow.
      expect(frame.seq).toBeUndefined();
    }
    expect((await t.app.ctx.db.selectFrom('chats').select('last_seq').where('id', '=', chat.id).executeTakeFirstOrThrow()).last_seq).toBe(seqBefore);

    await marker([laptop, phone, other, admin], 'after the read');
    expect(reads(other)).toEqual([]);
    expect(reads(admin)).toEqual([]);
    // Ben's count is his own: still 3, and his own read reaches him alone.
    const benRow = (await api('GET', '/chats?status=pending', ben.token)).json<Array<{ id: number; unread_count: number }>>().find((c) => c.id === chat.id)!;
    expect(benRow.unread_count).toBe(3);
    expect((await api('POST', `/chats/${chat.id}/read`, ben.token, { message_id: chat.messages[0] })).statusCode).toBe(200);
    await other.until((c) => reads(c).length === 1);
    expect(reads(other)[0].data).toEqual({ chat_id: chat.id, agent_id: ben.id, last_read_message_id: chat.messages[0], unread_count: 2 });
    await marker([laptop, phone, other, admin], 'after ben read');
    expect(reads(laptop)).toHaveLength(1);
    expect(reads(phone)).toHaveLength(1);
    expect(reads(admin)).toEqual([]);
  });

  it('says how many stay unread after a partial read, and sends nothing for a read that moves nothing', async () => {
    const laptop = await open(ann.token);
    const chat = await chatWith('Reader Two', 3);
    expect((await api('POST', `/chats/${chat.id}/read`, ann.token, { message_id: chat.messages[0] })).statusCode).toBe(200);
    await laptop.until((c) => reads(c).length === 1);
    expect(reads(laptop)[0].data).toMatchObject({ chat_id: chat.id, last_read_message_id: chat.messages[0], unread_count: 2 });

    // The same message again, then an older tab reading nothing newer: no event.
    expect((await api('POST', `/chats/${chat.id}/read`, ann.token, { message_id: chat.messages[0] })).statusCode).toBe(200);
    expect((await api('POST', `/chats/${chat.id}/read`, ann.token, { message_id: chat.messages[0] })).statusCode).toBe(200);
    await marker([laptop], 'nothing moved');
    expect(reads(laptop)).toHaveLength(1);

    expect((await api('POST', `/chats/${chat.id}/read`, ann.token)).statusCode).toBe(200);
    await laptop.until((c) => reads(c).length === 2);
    expect(reads(laptop)[1].data).toMatchObject({ last_read_message_id: chat.messages[2], unread_count: 0 });
  });

  it('is replayed to a device that resumes with its cursor, before ready', async () => {
    const phone = await open(annPhone);
    const chat = await chatWith('Reader Three', 2);
    await phone.until(
      (c) =>
        c.events().filter((f) => f.type === 'message.created' && f.data.message && (f.data.message as { chat_id: number }).chat_id === chat.id).length === 2,
    );
    const cursor = phone.lastCursor();
    await phone.close();

    // Read on the laptop while the phone is away.
    expect((await api('POST', `/chats/${chat.id}/read`, ann.token)).statusCode).toBe(200);
    await allRelayed(t.app); // while the phone is away

    const back = await open(annPhone, cursor);
    const replayed = back.frames.findIndex((f) => f.type === 'chat.read' && f.data.chat_id === chat.id);
    expect(replayed).toBeGreaterThanOrEqual(0);
    expect(replayed).toBeLessThan(back.frames.findIndex((f) => f.type === 'ready'));
    expect(back.frames[replayed].data).toEqual({ chat_id: chat.id, agent_id: ann.id, last_read_message_id: chat.messages[1], unread_count: 0 });
    // Ben resuming from the same cursor gets no such frame.
    const benBack = await open(ben.token, cursor);
    expect(benBack.frames.filter((f) => f.type === 'chat.read')).toEqual([]);
  });

  it('is no event webhook: a read makes no delivery to the event webhook URL', async () => {
    const settings = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/settings',
      headers: bearer(t.adminToken),
      payload: { event_webhook_url: 'http://127.0.0.1:9/events' },
    });
    expect(settings.statusCode).toBe(200);
    const chat = await chatWith('Reader Four', 1);
    await allRelayed(t.app);
    const count = async () =>
      Number(
        (
          await t.app.ctx.db
            .selectFrom('deliveries')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    expect((await api('POST', `/chats/${chat.id}/read`, ann.token)).statusCode).toBe(200);
    await allRelayed(t.app);
    expect(
      await t.app.ctx.db.selectFrom('events').select('type').where('type', '=', 'chat.read').where('data_json', 'like', `%"chat_id":${chat.id},%`).execute(),
    ).toHaveLength(1);
    expect(await count()).toBe(before);
  });
});
