/**
 * The visitor socket after retention deleted events: a cursor older than what
 * is kept gets {"type":"reset"} before ready and no replay (the frame reads
 * its session again); the session then hands out a cursor that replays as
 * before. Time is moved through the app's clock for the retention pass only.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { allRelayed, liveApp } from '../../../test/helpers/realtime.js';

import { createWidget, sendText, startSession, openVisitorSocket, type TestWidget } from '../../../test/helpers/widget.js';
import { Retention } from '../../retention/worker.js';

const DAY = 24 * 60 * 60 * 1000;

describe('visitor socket and retention', () => {
  const srv = liveApp({ clock: () => Date.now() + offset });
  let widget: TestWidget;
  let offset = 0;
  const open = (token: string, cursor: number) => openVisitorSocket(srv, widget.widget_id, token, cursor);

  beforeAll(async () => {
    widget = await createWidget(srv.t);
  });

  it('answers a cursor older than the kept events with reset before ready; the next session resumes normally', async () => {
    const s = await startSession(srv.t, widget.widget_id);
    await sendText(srv.t, widget.widget_id, s.visitor_token, 'Hello');
    await allRelayed(srv.t.app);
    offset = 31 * DAY;
    try {
      await new Retention(srv.t.app.ctx).pass();
    } finally {
      offset = 0;
    }

    const stale = await open(s.visitor_token, s.cursor);
    expect(stale.frames.map((f) => f.type)).toEqual(['reset', 'ready']);
    expect(stale.frames[0]).toEqual({ type: 'reset', data: { reason: 'cursor_expired' } });

    // What the frame does on reset: the session again (its chat and messages survive retention).
    const again = await startSession(srv.t, widget.widget_id, { token: s.visitor_token });
    expect(again.chat?.messages.map((m) => m.text)).toEqual(['Hello']);
    await sendText(srv.t, widget.widget_id, s.visitor_token, 'Still there?');
    await allRelayed(srv.t.app);
    const resumed = await open(s.visitor_token, again.cursor);
    expect(resumed.frames.map((f) => f.type)).not.toContain('reset');
    expect(resumed.events().some((f) => f.type === 'message.created' && (f.data.message as { text?: string }).text === 'Still there?')).toBe(true);
  });
});
