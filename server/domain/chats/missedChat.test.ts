/**
 * One definition of a missed chat (#32 item 15, docs/EVENTS.md and
 * docs/REPORTS.md): the chats that produce `chat_missed` (and the missed-chat
 * mail) are exactly the ones the reports count as missed, on both stores.
 * A real app with its workers, a clock the test moves, the missed-chat sweep
 * called by hand and a real event-webhook receiver. The chats (minutes after
 * T0, the account's limit 5 min):
 *   waiting   waits unanswered past the limit, still pending      → missed
 *   late      waits past the limit, then answered and finished    → missed
 *   silent    accepted (Reply pressed) but never written to       → missed (at the limit)
 *   closed    finished by an agent after 1 min, nobody wrote      → missed (at its finish)
 *   answered  answered at 1 min, finished at 8                    → not missed
 *   noted     only a private note at 1 min, answered at 2         → not missed
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCustomerEndpoint, waitFor } from '../../../test/helpers/chatChannel.js';
import { allRelayed } from '../../../test/helpers/realtime.js';
import { bearer, createTestApp, type TestApp } from '../../../test/helpers/testApp.js';
import { agentReply, createWidget, sendText, startSession, type TestWidget } from '../../../test/helpers/widget.js';
import { sweepMissedChats } from '../../mail/missedChats.js';

const T0 = Date.parse('2026-03-02T10:00:00Z');
const MIN = 60_000;
type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('a missed chat: chat_missed, the missed-chat mail and the reports agree', () => {
  let t: TestApp;
  let widget: TestWidget;
  let receiver: Awaited<ReturnType<typeof startCustomerEndpoint>>;
  let now = T0;
  const chats: Record<string, number> = {};
  const api = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) => {
    const res = await t.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: bearer(t.adminToken),
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    return res;
  };
  const missedHooks = () => receiver.requests.map((r) => JSON.parse(r.body) as Body).filter((b) => b.event_name === 'chat_missed');
  /** Everything relayed and every event webhook delivered: moving the clock with one in flight would send it again (its claim ran out). */
  const settle = async () => {
    await allRelayed(t.app);
    await waitFor(
      async () =>
        !(await t.app.ctx.db.selectFrom('deliveries').select('id').where('kind', '=', 'event_webhook').where('status', '=', 'pending').executeTakeFirst()),
      10_000,
    );
  };
  const at = async (ms: number) => {
    await settle();
    now = T0 + ms;
  };
  const newChat = async (name: string) => {
    const s = await startSession(t, widget.widget_id);
    chats[name] = (await sendText(t, widget.widget_id, s.visitor_token, `hello from ${name}`)).chat_id;
  };

  beforeAll(async () => {
    t = await createTestApp({ clock: () => now });
    receiver = await startCustomerEndpoint();
    widget = await createWidget(t, { name: 'Shop' });
    await api('PUT', '/settings', {
      event_webhook_url: `${receiver.url}/events`,
      event_webhook_types: { chat_missed: true },
      notifications: { missed_chat_minutes: 5 },
    });
    for (const name of ['waiting', 'late', 'silent', 'closed', 'answered', 'noted']) await newChat(name);
    await at(MIN);
    await agentReply(t, chats.answered, 'Hello! How can I help?');
    await api('POST', `/chats/${chats.silent}/accept`);
    await api('POST', `/chats/${chats.closed}/finish`, {});
    const note = await t.app.inject({
      method: 'POST',
      url: `/api/v1/chats/${chats.noted}/messages`,
      headers: bearer(t.adminToken),
      payload: { type: 'text', text: 'looks like a returning customer', internal: true },
    });
    expect(note.statusCode, note.body).toBe(201);
    await at(2 * MIN);
    await agentReply(t, chats.noted, 'Hi, one moment please');
    await at(6 * MIN);
    await sweepMissedChats(t.app.ctx);
    await at(7 * MIN);
    await agentReply(t, chats.late, 'Sorry for the wait!');
    await at(8 * MIN);
    for (const name of ['late', 'answered', 'noted']) await api('POST', `/chats/${chats[name]}/finish`, {});
    await sweepMissedChats(t.app.ctx);
    await settle();
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  const missed = ['waiting', 'late', 'silent', 'closed'];
  const notMissed = ['answered', 'noted'];

  it('chat_missed is sent once for each missed chat, and for no other', async () => {
    await waitFor(() => missedHooks().length >= missed.length, 10_000);
    await new Promise((r) => setTimeout(r, 300));
    const sent = missedHooks().map((b) => b.chat_id);
    expect([...sent].sort()).toEqual(missed.map((n) => chats[n]).sort());
    const closed = missedHooks().find((b) => b.chat_id === chats.closed);
    expect(closed?.waited_minutes).toBe(1);
    expect(missedHooks().find((b) => b.chat_id === chats.waiting)?.waited_minutes).toBe(6);
  });

  it('the missed-chat mail goes for the same chats', async () => {
    const mails = await waitFor(async () => {
      const all = (await api('GET', '/mails')).json<Array<{ type: string; chat_id: number; subject: string }>>().filter((m) => m.type === 'missed_chat');
      return all.length >= missed.length && all;
    }, 10_000);
    expect(mails.map((m) => m.chat_id).sort()).toEqual(missed.map((n) => chats[n]).sort());
    expect(mails.find((m) => m.chat_id === chats.waiting)?.subject).toMatch(/^Missed chat: Visitor \d+ waited 6 min$/);
    expect(mails.find((m) => m.chat_id === chats.closed)?.subject).toMatch(/^Missed chat: Visitor \d+'s chat was finished unanswered$/);
  });

  it('the reports count exactly those chats as missed', async () => {
    const report = (await api('GET', '/reports/chats?from=2026-03-02&to=2026-03-02&timezone=UTC')).json();
    expect(report.totals).toMatchObject({ started: 6, missed: missed.length });
    const facts = await t.app.ctx.db.selectFrom('report_chat_facts').select(['chat_id', 'missed']).execute();
    const counted = new Map(facts.map((f) => [f.chat_id, f.missed]));
    for (const name of missed) expect([name, counted.get(chats[name])]).toEqual([name, 1]);
    for (const name of notMissed) expect([name, counted.get(chats[name])]).toEqual([name, 0]);
  });
});

describe('the definition in the docs', () => {
  it('is the same words in docs/EVENTS.md and docs/REPORTS.md', () => {
    const docs = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../docs');
    const definition = (file: string) => {
      const text = fs.readFileSync(path.join(docs, file), 'utf8');
      const start = text.indexOf('A chat is **missed**');
      expect(start, `${file} defines a missed chat`).toBeGreaterThan(-1);
      return text.slice(start, text.indexOf('\n\n', start)).replace(/\s+/g, ' ');
    };
    expect(definition('REPORTS.md')).toBe(definition('EVENTS.md'));
    expect(definition('EVENTS.md')).toMatch(/no agent answered.*missed_chat_minutes.*whichever comes first/);
  });
});
