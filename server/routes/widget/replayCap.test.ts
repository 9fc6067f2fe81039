/**
 * The visitor socket's replay cap (realtime/feed.ts MAX_REPLAY): a cursor
 * more than MAX_REPLAY events of the account behind gets {"type":"reset",
 * "data":{"reason":"too_far_behind"}} before ready and no replay (the frame
 * reads its session again), then the visitor's live frames; the session then
 * hands out a cursor that resumes normally. The backlog (another chat's
 * events, none of them the visitor's) is written straight into the table as
 * relayed (test/helpers/realtime.ts seedRelayedEvents).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { allRelayed, liveApp, seedChat, seedRelayedEvents } from '../../../test/helpers/realtime.js';

import { agentReply, createWidget, sendText, startSession, openVisitorSocket, type TestWidget } from '../../../test/helpers/widget.js';
import { MAX_REPLAY } from '../../realtime/feed.js';

describe('visitor socket: the replay cap', () => {
  const srv = liveApp();
  let widget: TestWidget;
  const open = (token: string, cursor: number) => openVisitorSocket(srv, widget.widget_id, token, cursor);

  beforeAll(async () => {
    widget = await createWidget(srv.t);
  });

  it('answers a cursor more than MAX_REPLAY events behind with reset before ready, then live frames', async () => {
    const s = await startSession(srv.t, widget.widget_id);
    const { chat_id } = await sendText(srv.t, widget.widget_id, s.visitor_token, 'Hello');
    await allRelayed(srv.t.app);
    const cursor = (await startSession(srv.t, widget.widget_id, { token: s.visitor_token })).cursor;
    await seedRelayedEvents(srv.t.app, await seedChat(srv.t.app), MAX_REPLAY + 1);

    const behind = await open(s.visitor_token, cursor);
    expect(behind.frames.map((f) => f.type)).toEqual(['reset', 'ready']);
    expect(behind.frames[0]).toEqual({ type: 'reset', data: { reason: 'too_far_behind' } });
    await agentReply(srv.t, chat_id, 'Hi there');
    await behind.until((c) => c.events().some((f) => f.type === 'message.created'));

    // What the frame does on reset: the session again, whose cursor resumes without a reset.
    const again = await startSession(srv.t, widget.widget_id, { token: s.visitor_token });
    expect(again.chat?.messages.map((m) => m.text)).toEqual(['Hello', 'Hi there']);
    const resumed = await open(s.visitor_token, again.cursor);
    expect(resumed.frames.map((f) => f.type)).toEqual(['ready']);
  });
});
