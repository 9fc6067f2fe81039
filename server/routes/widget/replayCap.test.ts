/**
 * The visitor socket's replay cap (realtime/feed.ts MAX_REPLAY): a cursor
 * more than MAX_REPLAY events of the account behind gets {"type":"reset",
 * "data":{"reason":"too_far_behind"}} before ready and no replay (the frame
 * reads its session again), then the visitor's live frames; the session then
 * hands out a cursor that resumes normally. The backlog (another chat's
 * events, none of them the visitor's) is written straight into the table as
 * relayed (test/helpers/realtime.ts seedRelayedEvents).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRelayed, listen, seedChat, seedRelayedEvents, StreamClient } from '../../../test/helpers/realtime.js';
import { createTestApp, type TestApp } from '../../../test/helpers/testApp.js';
import { agentReply, createWidget, sendText, startSession, visitorSocketUrl, type TestWidget } from '../../../test/helpers/widget.js';
import { MAX_REPLAY } from '../../realtime/feed.js';

describe('visitor socket: the replay cap', () => {
  let t: TestApp;
  let base: string;
  let widget: TestWidget;
  const clients: StreamClient[] = [];
  const open = async (token: string, cursor: number): Promise<StreamClient> => {
    const c = await StreamClient.ready(visitorSocketUrl(base, widget.widget_id, token, cursor));
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    t = await createTestApp();
    base = await listen(t.app);
    widget = await createWidget(t);
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await t.close();
  });

  it('answers a cursor more than MAX_REPLAY events behind with reset before ready, then live frames', async () => {
    const s = await startSession(t, widget.widget_id);
    const { chat_id } = await sendText(t, widget.widget_id, s.visitor_token, 'Hello');
    await allRelayed(t.app);
    const cursor = (await startSession(t, widget.widget_id, { token: s.visitor_token })).cursor;
    await seedRelayedEvents(t.app, await seedChat(t.app), MAX_REPLAY + 1);

    const behind = await open(s.visitor_token, cursor);
    expect(behind.frames.map((f) => f.type)).toEqual(['reset', 'ready']);
    expect(behind.frames[0]).toEqual({ type: 'reset', data: { reason: 'too_far_behind' } });
    await agentReply(t, chat_id, 'Hi there');
    await behind.until((c) => c.events().some((f) => f.type === 'message.created'));

    // What the frame does on reset: the session again, whose cursor resumes without a reset.
    const again = await startSession(t, widget.widget_id, { token: s.visitor_token });
    expect(again.chat?.messages.map((m) => m.text)).toEqual(['Hello', 'Hi there']);
    const resumed = await open(s.visitor_token, again.cursor);
    expect(resumed.frames.map((f) => f.type)).toEqual(['ready']);
  });
});
