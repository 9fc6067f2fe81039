/**
 * Assignment modes end to end on a real app (both stores) with a clock the
 * test moves and the routing worker's turn called by hand: manual leaves the
 * queue as it was; round robin and least busy offer each new chat to one
 * Online agent below its limit; an offer not accepted in time goes to the
 * next agent (once, however many workers look); accepting ends the routing;
 * a department's chat goes to its agents first, then to everyone after the
 * wait (or never); settings refuse bad values in words and store nothing;
 * the widget's department choice (off, optional, required) and the
 * departments' names per language in its session.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { advanceOffers } from '../../../../domain/routing/advanceOffers.js';
import { moveOffer } from '../../../../domain/routing/offerChat.js';
import { commit } from '../../../../events/outbox.js';
import { rowsOf } from '../../../../../test/helpers/accounts.js';
import { createChatChannel, postInbound, textMessage, type ChatChannel } from '../../../../../test/helpers/chatChannel.js';
import { bearer, createTestApp, type TestApp } from '../../../../../test/helpers/testApp.js';
import { addOnlineAgents, createWidget, sendText, setStatus, startSession, visitorCall } from '../../../../../test/helpers/widget.js';

const T0 = Date.parse('2026-03-02T10:00:00Z');

interface Setup {
  t: TestApp;
  channel: ChatChannel;
  agents: Array<{ id: number; token: string }>;
  /** Moves the test clock on by ms. */
  tick(ms: number): void;
}

let current: TestApp | null = null;
afterEach(async () => {
  await current?.close();
  current = null;
});

async function setup(count = 3): Promise<Setup> {
  let now = T0;
  const t = await createTestApp({ clock: () => now, workers: false });
  current = t;
  const channel = await createChatChannel(t);
  const agents = await addOnlineAgents(t, count);
  return { t, channel, agents, tick: (ms) => (now += ms) };
}

const putRouting = (t: TestApp, payload: unknown) =>
  t.app.inject({ method: 'PUT', url: '/api/v1/routing', headers: bearer(t.adminToken), payload: payload as object });

let sender = 0;
async function newChat(s: Setup): Promise<number> {
  const res = await postInbound(s.t, s.channel, textMessage(`visitor-${++sender}`, 'Hello'));
  expect(res.statusCode, res.body).toBe(200);
  const chat = await s.t.app.ctx.db.selectFrom('chats').select('id').orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
  return chat.id;
}

async function offers(t: TestApp, chatId?: number) {
  const rows = await t.app.ctx.db.selectFrom('events').select(['chat_id', 'data_json']).where('type', '=', 'chat.offered').orderBy('id').execute();
  return rows.filter((r) => chatId === undefined || r.chat_id === chatId).map((r) => JSON.parse(r.data_json));
}

const accept = (t: TestApp, chatId: number, token: string) => t.app.inject({ method: 'POST', url: `/api/v1/chats/${chatId}/accept`, headers: bearer(token) });

describe('assignment modes', () => {
  it('manual (the default) offers nothing: the chat only waits in the queue', async () => {
    const s = await setup(1);
    expect((await s.t.app.inject({ method: 'GET', url: '/api/v1/routing', headers: bearer(s.t.adminToken) })).json()).toMatchObject({
      mode: 'manual',
      offer_timeout_seconds: 30,
      everyone_after_seconds: 60,
    });
    const chatId = await newChat(s);
    expect(await offers(s.t)).toEqual([]);
    expect(await s.t.app.ctx.db.selectFrom('chat_offers').selectAll().execute()).toEqual([]);
    expect((await accept(s.t, chatId, s.agents[0].token)).statusCode).toBe(200);
  });

  it('refuses bad settings in words and stores nothing', async () => {
    const s = await setup(1);
    const before = [await rowsOf(s.t, 'routing_settings'), await rowsOf(s.t, 'agents'), await rowsOf(s.t, 'departments')];
    const cases: Array<[unknown, RegExp]> = [
      [{ mode: 'lottery' }, /must be one of "manual", "round_robin", "least_busy"/],
      [{ mode: 'round_robin', offer_timeout_seconds: 2 }, /offer timeout must be a whole number of seconds from 5 to 600/],
      [{ everyone_after_seconds: -1 }, /or null for never/],
      [{ mode: 'least_busy', agents: [{ id: s.agents[0].id, max_chats: 0 }] }, /chat limit of agent .* from 1 to 1000/],
      [{ mode: 'least_busy', agents: [{ id: 999_999, max_chats: 2 }] }, /999999 is not an agent of this account/],
      [{ departments: [{ id: 999_999, mode: 'manual' }] }, /999999 is not a department of this account/],
    ];
    for (const [body, message] of cases) {
      const res = await putRouting(s.t, body);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.message).toMatch(message);
    }
    expect([await rowsOf(s.t, 'routing_settings'), await rowsOf(s.t, 'agents'), await rowsOf(s.t, 'departments')]).toEqual(before);
    const agent = await s.t.app.inject({ method: 'PUT', url: '/api/v1/routing', headers: bearer(s.agents[0].token), payload: { mode: 'manual' } });
    expect(agent.statusCode).toBe(403);
  });

  it('round robin offers each new chat to the next Online agent, skipping the offline', async () => {
    const s = await setup(3);
    await setStatus(s.t, 'away', s.agents[1].token);
    expect((await putRouting(s.t, { mode: 'round_robin', offer_timeout_seconds: 20 })).statusCode).toBe(200);
    const ids = s.agents.map((a) => a.id);
    const got: number[] = [];
    for (let i = 0; i < 4; i++) {
      s.tick(1000);
      const chatId = await newChat(s);
      const [offer] = await offers(s.t, chatId);
      expect(offer).toMatchObject({
        chat_id: chatId,
        attempt: 1,
        mode: 'round_robin',
        department_id: null,
        previous_agent_id: null,
        expires_at: expect.any(Number),
      });
      got.push(offer.agent_id);
    }
    expect(got).toEqual([ids[0], ids[2], ids[0], ids[2]]);
  });

  it('an offer not accepted in time goes to the next agent, once however many workers look; accepting ends it', async () => {
    const s = await setup(3);
    expect((await putRouting(s.t, { mode: 'round_robin', offer_timeout_seconds: 10 })).statusCode).toBe(200);
    const chatId = await newChat(s);
    const [first] = await offers(s.t, chatId);
    expect(first.agent_id).toBe(s.agents[0].id);
    // Not yet due: nothing moves.
    s.tick(9_999);
    expect(await advanceOffers(s.t.app.ctx)).toBe(0);
    s.tick(1);
    const moved = await Promise.all([advanceOffers(s.t.app.ctx), advanceOffers(s.t.app.ctx)]);
    expect(moved[0] + moved[1]).toBe(1);
    const all = await offers(s.t, chatId);
    expect(all).toHaveLength(2);
    expect(all[1]).toMatchObject({ agent_id: s.agents[1].id, attempt: 2, previous_agent_id: s.agents[0].id, expires_at: T0 + 20_000 });
    // While offered the chat stays in everyone's queue: the first agent may still take it.
    expect((await accept(s.t, chatId, s.agents[0].token)).statusCode).toBe(200);
    expect(await s.t.app.ctx.db.selectFrom('chat_offers').selectAll().execute()).toEqual([]);
    s.tick(60_000);
    expect(await advanceOffers(s.t.app.ctx)).toBe(0);
    expect(await offers(s.t, chatId)).toHaveLength(2);
  });

  it('the offered agent may decline: the chat goes to the next at once; nobody else may decline it', async () => {
    const s = await setup(2);
    await putRouting(s.t, { mode: 'round_robin' });
    const chatId = await newChat(s);
    const decline = (token: string) => s.t.app.inject({ method: 'POST', url: `/api/v1/chats/${chatId}/decline`, headers: bearer(token) });
    expect((await decline(s.agents[1].token)).statusCode).toBe(409);
    expect((await decline(s.agents[0].token)).statusCode).toBe(200);
    await advanceOffers(s.t.app.ctx);
    expect((await offers(s.t, chatId)).map((o) => o.agent_id)).toEqual([s.agents[0].id, s.agents[1].id]);
  });

  it('least busy offers to the agent holding the fewest chats; a full agent is skipped; nobody eligible: it waits and is offered later', async () => {
    const s = await setup(2);
    const [a, b] = s.agents;
    await putRouting(s.t, { mode: 'least_busy', agents: [{ id: b.id, max_chats: 1 }] });
    const c1 = await newChat(s);
    expect((await offers(s.t, c1))[0].agent_id).toBe(a.id); // both hold 0: the lower id
    expect((await accept(s.t, c1, a.token)).statusCode).toBe(200);
    const c2 = await newChat(s);
    expect((await offers(s.t, c2))[0].agent_id).toBe(b.id); // a holds 1, b 0
    const c3 = await newChat(s);
    expect((await offers(s.t, c3))[0].agent_id).toBe(a.id); // b is full (an offer counts), a holds 1
    expect((await accept(s.t, c3, a.token)).statusCode).toBe(200);
    await putRouting(s.t, { agents: [{ id: a.id, max_chats: 2 }] });
    const c4 = await newChat(s);
    expect(await offers(s.t, c4)).toEqual([]); // a holds 2 of 2, b 1 of 1: nobody
    expect(await s.t.app.ctx.db.selectFrom('chat_offers').select(['agent_id']).where('chat_id', '=', c4).executeTakeFirst()).toEqual({ agent_id: null });
    await s.t.app.inject({ method: 'POST', url: `/api/v1/chats/${c1}/finish`, headers: bearer(a.token) });
    s.tick(5000);
    await advanceOffers(s.t.app.ctx);
    expect((await offers(s.t, c4)).map((o) => o.agent_id)).toEqual([a.id]);
    // Its first offer, after waiting for nobody: attempt 1, nobody before it.
    expect((await offers(s.t, c4))[0]).toMatchObject({ attempt: 1, previous_agent_id: null });
  });

  it("ROUTING.md's example: after a wait for nobody, the next offer names the agent whose offer ran out, and the wait takes no attempt", async () => {
    // Round robin, timeout 10 s, wait 15 s, Billing = {Carol}; Bob and Alice are the rest of the account.
    const s = await setup(3);
    const [alice, bob, carol] = s.agents;
    const dept = (await s.t.app.inject({ method: 'POST', url: '/api/v1/departments', headers: bearer(s.t.adminToken), payload: { name: 'Billing' } })).json();
    await s.t.app.inject({ method: 'PUT', url: `/api/v1/departments/${dept.id}/agents`, headers: bearer(s.t.adminToken), payload: { agent_ids: [carol.id] } });
    await putRouting(s.t, { mode: 'round_robin', offer_timeout_seconds: 10, everyone_after_seconds: 15 });
    const chatId = await newChat(s);
    expect((await accept(s.t, chatId, alice.token)).statusCode).toBe(200);
    const moved = await s.t.app.inject({
      method: 'POST',
      url: `/api/v1/chats/${chatId}/transfer`,
      headers: bearer(alice.token),
      payload: { department_id: dept.id },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const fields = (o: Record<string, unknown>) => [o.agent_id, o.department_id, o.attempt, o.previous_agent_id];
    // 0 s: offered to Carol, the department's agent.
    expect((await offers(s.t, chatId)).slice(1).map(fields)).toEqual([[carol.id, dept.id, 1, null]]);
    // 10 s: Carol's offer runs out; nobody else in Billing is eligible, so it waits (no offer, no event).
    s.tick(10_000);
    await advanceOffers(s.t.app.ctx);
    expect((await offers(s.t, chatId)).slice(1)).toHaveLength(1);
    expect(await s.t.app.ctx.db.selectFrom('chat_offers').select(['agent_id', 'expires_at']).where('chat_id', '=', chatId).executeTakeFirst()).toEqual({
      agent_id: null,
      expires_at: T0 + 15_000,
    });
    // 15 s: everyone's turn, offered to Bob (offered a chat longest ago): attempt 2, after Carol.
    s.tick(5_000);
    await advanceOffers(s.t.app.ctx);
    expect((await offers(s.t, chatId)).slice(1).map(fields)).toEqual([
      [carol.id, dept.id, 1, null],
      [bob.id, null, 2, carol.id],
    ]);
    expect((await s.t.app.inject({ method: 'GET', url: `/api/v1/chats/${chatId}`, headers: bearer(bob.token) })).json().offer).toEqual({
      agent_id: bob.id,
      attempt: 2,
      expires_at: T0 + 25_000,
    });
    // 25 s: Bob lets it run out too; the next offer names him, attempt 3.
    s.tick(10_000);
    await advanceOffers(s.t.app.ctx);
    expect((await offers(s.t, chatId)).slice(3).map(fields)).toEqual([[expect.any(Number), null, 3, bob.id]]);
  });

  it('several waits in a row keep the agent whose offer ran out; a wait read twice is moved once', async () => {
    const s = await setup(1);
    const [a] = s.agents;
    await putRouting(s.t, { mode: 'round_robin', offer_timeout_seconds: 10 });
    const chatId = await newChat(s);
    await setStatus(s.t, 'away', a.token);
    // Runs out at 10 s, nobody Online: it waits, looked at again every 5 s.
    s.tick(10_000);
    await Promise.all([advanceOffers(s.t.app.ctx), advanceOffers(s.t.app.ctx)]);
    s.tick(5_000);
    // A wait keeps its attempt, so a second instance holding the same (now stale) row must still change nothing.
    const stale = await s.t.app.ctx.db.selectFrom('chat_offers').selectAll().where('chat_id', '=', chatId).executeTakeFirstOrThrow();
    const move = () => commit(s.t.app.ctx.db, s.t.app.ctx.signals, (tx) => moveOffer(tx, stale, T0 + 15_000));
    expect([await move(), await move()]).toEqual([true, false]);
    expect(await offers(s.t, chatId)).toHaveLength(1);
    await setStatus(s.t, 'online', a.token);
    s.tick(5_000);
    await advanceOffers(s.t.app.ctx);
    expect((await offers(s.t, chatId)).map((o) => [o.agent_id, o.attempt, o.previous_agent_id])).toEqual([
      [a.id, 1, null],
      [a.id, 2, a.id],
    ]);
  });

  it("a department's chat goes to its agents first, then to everyone after the wait (or never)", async () => {
    const s = await setup(3);
    const [a, b, c] = s.agents;
    const dept = (await s.t.app.inject({ method: 'POST', url: '/api/v1/departments', headers: bearer(s.t.adminToken), payload: { name: 'Billing' } })).json();
    await s.t.app.inject({ method: 'PUT', url: `/api/v1/departments/${dept.id}/agents`, headers: bearer(s.t.adminToken), payload: { agent_ids: [c.id] } });
    await putRouting(s.t, { mode: 'round_robin', offer_timeout_seconds: 10, everyone_after_seconds: 15 });
    const chatId = await newChat(s);
    expect((await offers(s.t, chatId))[0].agent_id).toBe(a.id);
    expect((await accept(s.t, chatId, a.token)).statusCode).toBe(200);
    const moved = await s.t.app.inject({
      method: 'POST',
      url: `/api/v1/chats/${chatId}/transfer`,
      headers: bearer(a.token),
      payload: { department_id: dept.id },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const first = (await offers(s.t, chatId)).slice(1);
    expect(first).toEqual([expect.objectContaining({ agent_id: c.id, department_id: dept.id, attempt: 1 })]);
    // Timeout within the department's turn: its only agent again (a new round).
    s.tick(10_000);
    await advanceOffers(s.t.app.ctx);
    s.tick(5_000);
    await advanceOffers(s.t.app.ctx);
    const later = (await offers(s.t, chatId)).slice(1);
    // 10 s: nobody else in Billing, so the chat waits until everyone's turn (15 s); then everyone.
    expect(later.map((o) => [o.agent_id, o.department_id])).toEqual([
      [c.id, dept.id],
      [b.id, null],
    ]);

    // Never to everyone: the department's agents only.
    await putRouting(s.t, { everyone_after_seconds: null });
    await setStatus(s.t, 'offline', c.token);
    const again = await s.t.app.inject({ method: 'POST', url: `/api/v1/chats/${chatId}/accept`, headers: bearer(b.token) });
    expect(again.statusCode).toBe(200);
    await s.t.app.inject({ method: 'POST', url: `/api/v1/chats/${chatId}/transfer`, headers: bearer(b.token), payload: { department_id: dept.id } });
    s.tick(3_600_000);
    await advanceOffers(s.t.app.ctx);
    expect((await offers(s.t, chatId)).length).toBe(3);
    expect(await s.t.app.ctx.db.selectFrom('chat_offers').select(['agent_id', 'everyone_at']).where('chat_id', '=', chatId).executeTakeFirst()).toEqual({
      agent_id: null,
      everyone_at: null,
    });
  });

  it("a department's own mode wins over the account's: manual account, round-robin department", async () => {
    const s = await setup(2);
    const [a, b] = s.agents;
    const dept = (await s.t.app.inject({ method: 'POST', url: '/api/v1/departments', headers: bearer(s.t.adminToken), payload: { name: 'Sales' } })).json();
    await s.t.app.inject({ method: 'PUT', url: `/api/v1/departments/${dept.id}/agents`, headers: bearer(s.t.adminToken), payload: { agent_ids: [b.id] } });
    const saved = await putRouting(s.t, { departments: [{ id: dept.id, mode: 'round_robin' }] });
    expect(saved.json().departments).toEqual([{ id: dept.id, name: 'Sales', mode: 'round_robin', names: {} }]);
    const chatId = await newChat(s);
    expect(await offers(s.t, chatId)).toEqual([]); // no department: the account's manual queue
    expect((await accept(s.t, chatId, a.token)).statusCode).toBe(200);
    await s.t.app.inject({ method: 'POST', url: `/api/v1/chats/${chatId}/transfer`, headers: bearer(a.token), payload: { department_id: dept.id } });
    expect((await offers(s.t, chatId)).map((o) => [o.agent_id, o.mode])).toEqual([[b.id, 'round_robin']]);
    // After the department's turn the account's mode (manual) holds: routing ends, the chat waits in the queue.
    s.tick(60_000);
    await advanceOffers(s.t.app.ctx);
    expect(await s.t.app.ctx.db.selectFrom('chat_offers').selectAll().execute()).toEqual([]);
  });
});

describe("the widget's department choice", () => {
  it('off by default; required: the session lists the departments with their names per language, a first message without one is refused', async () => {
    const s = await setup(1);
    const widget = await createWidget(s.t);
    const post = (name: string) => s.t.app.inject({ method: 'POST', url: '/api/v1/departments', headers: bearer(s.t.adminToken), payload: { name } });
    const sales = (await post('Sales')).json().id;
    const billing = (await post('Billing')).json().id;
    const off = await startSession(s.t, widget.widget_id);
    expect(off.settings).toMatchObject({ department_choice: 'off', departments: [] });

    // Bad values are refused in words and change nothing.
    const before = [await rowsOf(s.t, 'channels'), await rowsOf(s.t, 'departments')];
    for (const [body, message] of [
      [{ widgets: [{ id: widget.id, department_choice: 'always' }] }, /must be "off", "optional" or "required"/],
      [{ widgets: [{ id: s.channel.id, department_choice: 'required' }] }, /is not a widget of this account/],
      [{ departments: [{ id: sales, names: { xx: 'Nope' } }] }, /"xx" is not a widget language/],
    ] as Array<[unknown, RegExp]>) {
      const res = await putRouting(s.t, body);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.message).toMatch(message);
    }
    expect([await rowsOf(s.t, 'channels'), await rowsOf(s.t, 'departments')]).toEqual(before);

    const saved = await putRouting(s.t, {
      widgets: [{ id: widget.id, department_choice: 'required' }],
      departments: [{ id: sales, names: { de: 'Vertrieb', fr: ' Ventes ' } }],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().widgets).toEqual([{ id: widget.id, name: 'Site', department_choice: 'required' }]);
    // Names only: the department's mode stays as it was.
    expect(saved.json().departments).toEqual([
      { id: billing, name: 'Billing', mode: null, names: {} },
      { id: sales, name: 'Sales', mode: null, names: { de: 'Vertrieb', fr: 'Ventes' } },
    ]);
    const session = await startSession(s.t, widget.widget_id);
    expect(session.settings).toMatchObject({
      department_choice: 'required',
      departments: [
        { id: billing, name: 'Billing', names: {} },
        { id: sales, name: 'Sales', names: { de: 'Vertrieb', fr: 'Ventes' } },
      ],
    });

    const refused = await visitorCall(s.t, widget.widget_id, session.visitor_token, 'messages', { type: 'text', text: 'Hello?' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.message).toMatch(/Choose a department before the first message/);
    expect(await s.t.app.ctx.db.selectFrom('chats').selectAll().execute()).toEqual([]);

    const first = await sendText(s.t, widget.widget_id, session.visitor_token, 'About my invoice', { department_id: billing });
    // Later messages of the open chat need no department.
    await sendText(s.t, widget.widget_id, session.visitor_token, 'Number 42');
    const chat = await s.t.app.ctx.db.selectFrom('chats').select(['id', 'department_id']).where('id', '=', first.chat_id).executeTakeFirstOrThrow();
    expect(chat.department_id).toBe(billing);
  });

  it("optional: a first message without a department opens a chat without one; the chosen department's agents are offered it first", async () => {
    const s = await setup(2);
    const [a, b] = s.agents;
    const widget = await createWidget(s.t);
    const sales = (await s.t.app.inject({ method: 'POST', url: '/api/v1/departments', headers: bearer(s.t.adminToken), payload: { name: 'Sales' } })).json().id;
    await s.t.app.inject({ method: 'PUT', url: `/api/v1/departments/${sales}/agents`, headers: bearer(s.t.adminToken), payload: { agent_ids: [b.id] } });
    await putRouting(s.t, { mode: 'round_robin', widgets: [{ id: widget.id, department_choice: 'optional' }] });
    const one = await startSession(s.t, widget.widget_id);
    const plain = await sendText(s.t, widget.widget_id, one.visitor_token, 'Just a question');
    expect((await offers(s.t, plain.chat_id))[0]).toMatchObject({ agent_id: a.id, department_id: null });
    const two = await startSession(s.t, widget.widget_id);
    const chosen = await sendText(s.t, widget.widget_id, two.visitor_token, 'A quote please', { department_id: sales });
    expect((await offers(s.t, chosen.chat_id))[0]).toMatchObject({ agent_id: b.id, department_id: sales });
  });
});
