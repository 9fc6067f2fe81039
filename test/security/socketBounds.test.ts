/**
 * WebSocket connections are bounded (WS_MAX_PER_VISITOR, WS_MAX_PER_AGENT_TOKEN,
 * WS_MAX_PER_ADDRESS): beyond a bound the socket is closed with 4429 and a
 * reason naming it, the refusal is counted in parley_socket_refusals_total,
 * and a closed socket frees its place. Other visitors, tokens and addresses
 * are not affected. And the cost of an agent's status change does not grow
 * with the open visitor sockets: availability is queried once per channel,
 * however many sockets show it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLOSE_TOO_MANY } from '../../server/realtime/socket.js';
import { addAgent } from '../helpers/accounts.js';
import { allRelayed, listen, StreamClient } from '../helpers/realtime.js';
import { createTestApp, type TestApp } from '../helpers/testApp.js';
import { createWidget, setStatus, startSession, visitorSocketUrl, type TestWidget } from '../helpers/widget.js';

async function refusals(t: TestApp, bound: string): Promise<number> {
  const metric = await t.app.ctx.metrics.socketRefusals.get();
  return metric.values.find((v) => v.labels.bound === bound)?.value ?? 0;
}

describe('WebSocket bounds', () => {
  let t: TestApp;
  let base: string;
  let widget: TestWidget;
  const clients: StreamClient[] = [];
  const ready = async (url: string, address: string): Promise<StreamClient> => {
    const c = await StreamClient.ready(url, { 'x-forwarded-for': address });
    clients.push(c);
    return c;
  };
  const refused = async (url: string, address: string): Promise<{ code: number; reason: string }> => {
    const c = await StreamClient.open(url, { 'x-forwarded-for': address });
    return c.waitClosed();
  };
  const stream = (token: string) => `${base.replace(/^http/, 'ws')}/api/v1/stream?token=${encodeURIComponent(token)}`;
  const visitor = (token: string) => visitorSocketUrl(base.replace(/^http/, 'ws'), widget.widget_id, token);

  beforeAll(async () => {
    t = await createTestApp({ env: { WS_MAX_PER_VISITOR: '2', WS_MAX_PER_AGENT_TOKEN: '2', WS_MAX_PER_ADDRESS: '5' } });
    base = await listen(t.app);
    widget = await createWidget(t);
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await t.close();
  });

  it('refuses a visitor token its third socket with 4429, and takes it again once one closed', async () => {
    const s = await startSession(t, widget.widget_id);
    const other = await startSession(t, widget.widget_id);
    const first = await ready(visitor(s.visitor_token), '198.51.100.1');
    await ready(visitor(s.visitor_token), '198.51.100.2');
    const before = await refusals(t, 'visitor');
    const third = await refused(visitor(s.visitor_token), '198.51.100.3');
    expect(third).toEqual({ code: CLOSE_TOO_MANY, reason: 'too many connections for this visitor (at most 2); close another and reconnect later' });
    expect(await refusals(t, 'visitor')).toBe(before + 1);
    // Another visitor is not concerned.
    await ready(visitor(other.visitor_token), '198.51.100.1');
    await first.close();
    await ready(visitor(s.visitor_token), '198.51.100.3');
  });

  it('refuses an agent token its third stream with 4429; another sign-in of the same agent opens its own', async () => {
    const agent = await addAgent(t, { email: 'bounded@example.com' });
    const first = await ready(stream(agent.token), '198.51.100.11');
    await ready(stream(agent.token), '198.51.100.12');
    const third = await refused(stream(agent.token), '198.51.100.13');
    expect(third).toEqual({ code: CLOSE_TOO_MANY, reason: 'too many connections for this sign-in (at most 2); close another and reconnect later' });
    expect(await refusals(t, 'agent_token')).toBeGreaterThanOrEqual(1);
    const again = await t.login('bounded@example.com', 'agent-password-1');
    await ready(stream(again), '198.51.100.13');
    await first.close();
    await ready(stream(agent.token), '198.51.100.13');
  });

  it('refuses an address its sixth socket, agent and visitor sockets together, before looking at the token', async () => {
    const address = '203.0.113.77';
    const sessions = await Promise.all([1, 2, 3].map(() => startSession(t, widget.widget_id)));
    const held: StreamClient[] = [];
    for (const s of sessions) held.push(await ready(visitor(s.visitor_token), address));
    held.push(await ready(stream(t.adminToken), address));
    held.push(await ready(visitor(sessions[0].visitor_token), address));
    expect(t.app.ctx.sockets.held('address', address)).toBe(5);
    expect(await refused(stream('not-even-a-token'), address)).toEqual({
      code: CLOSE_TOO_MANY,
      reason: 'too many connections from your address (at most 5); close another and reconnect later',
    });
    expect((await refused(visitor(sessions[1].visitor_token), address)).code).toBe(CLOSE_TOO_MANY);
    expect(await refusals(t, 'address')).toBe(2);
    // Another address is not concerned; a closed socket frees its place.
    await ready(visitor(sessions[1].visitor_token), '203.0.113.78');
    await held[0].close();
    await ready(visitor(sessions[2].visitor_token), address);
    await Promise.all(clients.map((c) => c.close()));
    expect(t.app.ctx.sockets.held('address', address)).toBe(0);
  });
});

describe("an agent's status change and many visitor sockets", () => {
  let t: TestApp;
  const clients: StreamClient[] = [];

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await t.close();
  });

  it("queries each channel's availability once, however many visitor sockets show it", { timeout: 60_000 }, async () => {
    const base = (await listen(t.app)).replace(/^http/, 'ws');
    const agent = await addAgent(t, { email: 'status-once@example.com' });
    const mine = await createWidget(t, { name: 'Assigned site', agent_ids: [agent.id] });
    const everyone = await createWidget(t, { name: 'Everyone site' });
    for (const [site, n] of [
      [mine, 12],
      [everyone, 4],
    ] as const) {
      for (let i = 0; i < n; i++) {
        const s = await startSession(t, site.widget_id);
        expect(s.online).toBe(false);
        clients.push(await StreamClient.ready(visitorSocketUrl(base, site.widget_id, s.visitor_token, s.cursor)));
      }
    }
    await allRelayed(t.app);
    const before = (await t.app.ctx.metrics.availabilityChecks.get()).values[0]?.value ?? 0;

    await setStatus(t, 'online', agent.token);
    for (const c of clients) await c.until((x) => x.events().some((f) => f.type === 'status' && f.data.online === true));
    const after = (await t.app.ctx.metrics.availabilityChecks.get()).values[0]?.value ?? 0;
    // One agent.updated, two channels: two queries for sixteen sockets.
    expect(after - before).toBe(2);
  });
});
