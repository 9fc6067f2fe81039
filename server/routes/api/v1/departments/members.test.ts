/**
 * Departments that mean something (#21 part 2): agents belong to departments
 * (GET/PUT /departments/:id/agents: replaced whole, refusals store nothing,
 * another account's agents and departments refused, deleting an agent or a
 * department drops its memberships), and a chat transferred to a department
 * waits there again (POST /chats/:id/transfer {department_id}).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAgent, createOtherAccount, rowsOf } from '../../../../../test/helpers/accounts.js';
import { createChatChannel, postInbound, textMessage, type ChatChannel } from '../../../../../test/helpers/chatChannel.js';
import { bearer, createTestApp, type TestApp } from '../../../../../test/helpers/testApp.js';

describe('departments: members and transfer to a department', () => {
  let t: TestApp;
  let alice: { id: number; token: string };
  let bob: { id: number; token: string };
  let sales: number;
  let billing: number;
  let channel: ChatChannel;
  let sender = 0;

  const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, token = t.adminToken) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as object }) });
  const newChat = async (holder?: { token: string }): Promise<number> => {
    sender += 1;
    await postInbound(t, channel, textMessage(`dep-${sender}`, 'Hello', { name: `Visitor ${sender}` }));
    const id = (await api('GET', '/chats?status=pending')).json().find((c: { visitor: { name: string } }) => c.visitor.name === `Visitor ${sender}`).id;
    if (holder) expect((await api('POST', `/chats/${id}/accept`, undefined, holder.token)).statusCode).toBe(200);
    return id as number;
  };

  beforeAll(async () => {
    t = await createTestApp();
    alice = await addAgent(t, { email: 'alice@example.com', name: 'Alice' });
    bob = await addAgent(t, { email: 'bob@example.com', name: 'Bob' });
    sales = (await api('POST', '/departments', { name: 'Sales' })).json().id;
    billing = (await api('POST', '/departments', { name: 'Billing' })).json().id;
    channel = await createChatChannel(t);
  });
  afterAll(() => t.close());

  it('starts empty, is replaced whole, and reads back sorted', async () => {
    expect((await api('GET', `/departments/${sales}/agents`)).json()).toEqual({ department_id: sales, agent_ids: [] });
    const set = await api('PUT', `/departments/${sales}/agents`, { agent_ids: [bob.id, alice.id, bob.id] });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toEqual({ department_id: sales, agent_ids: [alice.id, bob.id].sort((a, b) => a - b) });
    expect((await api('PUT', `/departments/${billing}/agents`, { agent_ids: [bob.id] })).json().agent_ids).toEqual([bob.id]);
    expect((await api('PUT', `/departments/${sales}/agents`, { agent_ids: [alice.id] })).json().agent_ids).toEqual([alice.id]);
    expect((await api('GET', `/departments/${billing}/agents`)).json().agent_ids).toEqual([bob.id]);
  });

  it("refuses another account's agent or department, and bad bodies, changing nothing", async () => {
    const other = await createOtherAccount(t);
    const before = await rowsOf(t, 'agent_departments');
    const foreign = await api('PUT', `/departments/${sales}/agents`, { agent_ids: [alice.id, other.adminId] });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().error.message).toBe(`agent_ids must name agents of this account; ${other.adminId} is not one.`);
    expect((await api('PUT', `/departments/${sales}/agents`, { agent_ids: 'all' })).statusCode).toBe(400);
    expect((await api('PUT', `/departments/${sales}/agents`, { agent_ids: [] }, other.token)).statusCode).toBe(404);
    expect((await api('GET', `/departments/${sales}/agents`, undefined, other.token)).statusCode).toBe(404);
    expect((await api('PUT', `/departments/${sales}/agents`, { agent_ids: [] }, alice.token)).statusCode).toBe(403);
    expect(await rowsOf(t, 'agent_departments')).toEqual(before);
  });

  it('drops the memberships of a deleted department', async () => {
    const temp = (await api('POST', '/departments', { name: 'Temp' })).json().id;
    await api('PUT', `/departments/${temp}/agents`, { agent_ids: [alice.id, bob.id] });
    expect((await api('DELETE', `/departments/${temp}`)).statusCode).toBe(204);
    expect(await t.app.ctx.db.selectFrom('agent_departments').selectAll().where('department_id', '=', temp).execute()).toEqual([]);
  });

  it('transfers an active chat to a department: it waits there again, with a system message and chat.updated', async () => {
    const chatId = await newChat(alice);
    const res = await api('POST', `/chats/${chatId}/transfer`, { department_id: billing }, alice.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: chatId, status: 'pending', accepted_by: null, department_id: billing, agent_ids: [alice.id] });
    expect(res.json().messages.at(-1)).toMatchObject({ author: 'system', text: 'Transferred from Alice to the Billing department' });
    const last = await t.app.ctx.db
      .selectFrom('events')
      .selectAll()
      .where('chat_id', '=', chatId)
      .where('type', '=', 'chat.updated')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(last.data_json)).toMatchObject({ change: 'transferred', agent_id: alice.id, chat: { status: 'pending', department_id: billing } });
    // A department's agent takes it from there.
    expect((await api('POST', `/chats/${chatId}/accept`, undefined, bob.token)).json()).toMatchObject({ status: 'active', accepted_by: bob.id });
  });

  it('refuses a transfer to an unknown department, to the one it waits in, or naming both or neither target', async () => {
    const chatId = await newChat();
    const before = [await rowsOf(t, 'chats'), await rowsOf(t, 'messages')];
    const cases: Array<[unknown, RegExp]> = [
      [{ department_id: 999999 }, /999999 is not one/],
      [{}, /either agent_id .* or department_id/],
      [{ agent_id: bob.id, department_id: sales }, /either agent_id .* or department_id/],
    ];
    for (const [body, message] of cases) {
      const res = await api('POST', `/chats/${chatId}/transfer`, body);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.message).toMatch(message);
    }
    expect((await api('POST', `/chats/${chatId}/transfer`, { department_id: sales })).statusCode).toBe(200);
    const again = await api('POST', `/chats/${chatId}/transfer`, { department_id: sales });
    expect(again.statusCode).toBe(400);
    expect(again.json().error.message).toBe('The chat is already waiting in Sales.');
    expect(before[0]).not.toEqual(await rowsOf(t, 'chats'));
  });
});
