/**
 * The chat DTO's `offer` (#21, docs/ROUTING.md "What the agent sees"): who a
 * waiting chat is offered to and until when, in every list row (the inbox,
 * the search, a visitor's chats), in GET /api/v1/chats/:id and in the answers
 * built like it; null in manual mode, when nobody is eligible, and once the
 * chat no longer waits. It follows each move (a decline, a timeout), reads the
 * same for every agent, and the chats inside stream frames leave it out
 * (chat.offered frames carry the moves). Both stores; a clock the test moves
 * and the routing worker's turn called by hand.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { advanceOffers } from '../../../../domain/routing/advanceOffers.js';

import { createChatChannel, postInbound, textMessage, type ChatChannel } from '../../../../../test/helpers/chatChannel.js';
import { bearer, createTestApp, type TestApp } from '../../../../../test/helpers/testApp.js';
import { addOnlineAgents } from '../../../../../test/helpers/widget.js';

const T0 = Date.parse('2026-03-02T10:00:00Z');

let current: TestApp | null = null;
afterEach(async () => {
  await current?.close();
  current = null;
});

interface Setup {
  t: TestApp;
  channel: ChatChannel;
  agents: Array<{ id: number; token: string }>;
  tick(ms: number): void;
}

async function setup(count: number): Promise<Setup> {
  let now = T0;
  const t = await createTestApp({ clock: () => now, workers: false });
  current = t;
  const channel = await createChatChannel(t);
  const agents = await addOnlineAgents(t, count);
  return { t, channel, agents, tick: (ms) => (now += ms) };
}

const get = (t: TestApp, url: string, token = t.adminToken) => t.app.inject({ method: 'GET', url, headers: bearer(token) });
const post = (t: TestApp, url: string, token: string, payload?: object) => t.app.inject({ method: 'POST', url, headers: bearer(token), payload });

async function newChat(s: Setup, sender: string): Promise<number> {
  const res = await postInbound(s.t, s.channel, textMessage(sender, 'Hello, I need help'));
  expect(res.statusCode, res.body).toBe(200);
  const chat = await s.t.app.ctx.db.selectFrom('chats').select('id').orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
  return chat.id;
}

type Row = { id: number; offer: unknown };

/** The chat's `offer` as each way of reading it says it: the pending list, the chat itself, the search, the visitor's chats. */
async function offerEverywhere(s: Setup, chatId: number, token = s.t.adminToken): Promise<unknown[]> {
  const list = (await get(s.t, '/api/v1/chats?status=pending', token)).json<Row[]>();
  const one = (await get(s.t, `/api/v1/chats/${chatId}`, token)).json();
  const found = (await get(s.t, '/api/v1/chats/search?status=pending', token)).json<Row[]>();
  const visitor = (await get(s.t, `/api/v1/visitors/${one.visitor.id}/chats`, token)).json<Row[]>();
  return [list.find((c) => c.id === chatId)?.offer, one.offer, found.find((c) => c.id === chatId)?.offer, visitor.find((c) => c.id === chatId)?.offer];
}

describe('the chat DTO says who a waiting chat is offered to', () => {
  it('null in manual mode, everywhere', async () => {
    const s = await setup(1);
    const chatId = await newChat(s, 'visitor-1');
    expect(await offerEverywhere(s, chatId)).toEqual([null, null, null, null]);
  });

  it('the agent, the attempt and until when; it follows a decline and a timeout, and is gone once accepted', async () => {
    const s = await setup(2);
    const [a, b] = s.agents;
    const put = await s.t.app.inject({
      method: 'PUT',
      url: '/api/v1/routing',
      headers: bearer(s.t.adminToken),
      payload: { mode: 'round_robin', offer_timeout_seconds: 30 },
    });
    expect(put.statusCode, put.body).toBe(200);
    const chatId = await newChat(s, 'visitor-2');
    const first = { agent_id: a.id, attempt: 1, expires_at: T0 + 30_000 };
    expect(await offerEverywhere(s, chatId)).toEqual([first, first, first, first]);
    // The same for the agent it is offered to and for the others.
    expect(await offerEverywhere(s, chatId, a.token)).toEqual([first, first, first, first]);
    expect(await offerEverywhere(s, chatId, b.token)).toEqual([first, first, first, first]);

    // Declined: it moves to the next agent.
    s.tick(1000);
    expect((await post(s.t, `/api/v1/chats/${chatId}/decline`, a.token)).statusCode).toBe(200);
    await advanceOffers(s.t.app.ctx);
    const second = { agent_id: b.id, attempt: 2, expires_at: T0 + 31_000 };
    expect(await offerEverywhere(s, chatId, a.token)).toEqual([second, second, second, second]);

    // Not accepted in time: a new round, back to the first agent.
    s.tick(30_000);
    await advanceOffers(s.t.app.ctx);
    const third = { agent_id: a.id, attempt: 3, expires_at: T0 + 61_000 };
    expect((await get(s.t, `/api/v1/chats/${chatId}`, b.token)).json().offer).toEqual(third);

    // Accepted: no offer any more, in the answer of the accept and everywhere.
    const accepted = await post(s.t, `/api/v1/chats/${chatId}/accept`, b.token);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toMatchObject({ status: 'active', accepted_by: b.id, offer: null });
    const active = (await get(s.t, '/api/v1/chats?status=active')).json<Row[]>();
    expect(active.find((c) => c.id === chatId)?.offer).toBeNull();
  });

  it('null while nobody is eligible; the chats inside stream frames carry no offer', async () => {
    const s = await setup(1);
    const [a] = s.agents;
    await s.t.app.inject({
      method: 'PUT',
      url: '/api/v1/routing',
      headers: bearer(s.t.adminToken),
      payload: { mode: 'least_busy', agents: [{ id: a.id, max_chats: 1 }] },
    });
    const c1 = await newChat(s, 'visitor-3');
    expect((await get(s.t, `/api/v1/chats/${c1}`)).json().offer).toMatchObject({ agent_id: a.id, attempt: 1 });
    // a holds one offer of its one: the next chat waits for nobody in particular.
    const c2 = await newChat(s, 'visitor-4');
    expect(await offerEverywhere(s, c2)).toEqual([null, null, null, null]);

    const events = await s.t.app.ctx.db.selectFrom('events').select(['type', 'data_json']).where('type', 'in', ['chat.created', 'chat.updated']).execute();
    expect(events.length).toBeGreaterThan(0);
    for (const e of events) expect(JSON.parse(e.data_json).chat).not.toHaveProperty('offer');
  });
});
