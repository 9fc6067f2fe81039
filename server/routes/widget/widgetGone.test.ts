/**
 * A widget an admin disables or deletes leaves open pages at once: the
 * visitor's socket closes with 4404 as the channel.changed event of the
 * change reaches it (realtime/visitorSocket.ts), well before the keep-alive
 * tick would look the widget up again; an erased visitor's socket closes with
 * 4410 from the domain's port (AppContext.widgetSockets).
 */
import { describe, expect, it } from 'vitest';
import { sha256 } from '../../lib/ids.js';
import { liveApp, StreamClient } from '../../../test/helpers/realtime.js';
import { bearer } from '../../../test/helpers/testApp.js';
import { createWidget, startSession, visitorSocketUrl } from '../../../test/helpers/widget.js';

describe('a widget gone, a visitor erased', () => {
  const srv = liveApp();
  const open = async (widgetId: string): Promise<StreamClient & { token: string }> => {
    const s = await startSession(srv.t, widgetId);
    const c = await StreamClient.ready(visitorSocketUrl(srv.base, widgetId, s.visitor_token));
    srv.clients.push(c);
    return Object.assign(c, { token: s.visitor_token });
  };

  it('closes the sockets of a disabled widget with 4404, and leaves other widgets open', async () => {
    const widget = await createWidget(srv.t);
    const other = await createWidget(srv.t);
    const socket = await open(widget.widget_id);
    const kept = await open(other.widget_id);
    const res = await srv.t.app.inject({
      method: 'PATCH',
      url: `/api/v1/channels/${widget.id}`,
      headers: bearer(srv.t.adminToken),
      payload: { enabled: false },
    });
    expect(res.statusCode).toBe(200);
    expect(await socket.waitClosed()).toMatchObject({ code: 4404, reason: 'the widget was deleted or disabled' });
    const renamed = await srv.t.app.inject({
      method: 'PATCH',
      url: `/api/v1/channels/${other.id}`,
      headers: bearer(srv.t.adminToken),
      payload: { name: 'Renamed' },
    });
    expect(renamed.statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, 300));
    expect(kept.closeInfo).toBeNull();
  });

  it('closes the sockets of a deleted widget with 4404', async () => {
    const widget = await createWidget(srv.t);
    const socket = await open(widget.widget_id);
    expect((await srv.t.app.inject({ method: 'DELETE', url: `/api/v1/channels/${widget.id}`, headers: bearer(srv.t.adminToken) })).statusCode).toBe(204);
    expect(await socket.waitClosed()).toMatchObject({ code: 4404 });
  });

  it("closes an erased visitor's socket with 4410 as the erasure is requested", async () => {
    const widget = await createWidget(srv.t);
    const socket = await open(widget.widget_id);
    const visitor = await srv.t.app.ctx.db.selectFrom('visitors').select('id').where('token_hash', '=', sha256(socket.token)).executeTakeFirstOrThrow();
    expect((await srv.t.app.inject({ method: 'DELETE', url: `/api/v1/visitors/${visitor.id}`, headers: bearer(srv.t.adminToken) })).statusCode).toBe(202);
    expect(await socket.waitClosed()).toMatchObject({ code: 4410, reason: 'the visitor was erased' });
  });
});
