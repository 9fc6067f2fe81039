/**
 * Every JSON body Parley reads is data, never structure (#17 item 12): keys
 * `__proto__` and `constructor` at any depth are ignored by the agent API and
 * the widget's visitor API, as by the chat channel (server/routes/wh/asSent.test.ts)
 * and the answers to deliveries (server/webhooks/send.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../helpers/testApp.js';
import { createWidget, startSession, visitorCall, type TestWidget } from '../helpers/widget.js';

describe('__proto__ and constructor keys in API and widget bodies', () => {
  let t: TestApp;
  let widget: TestWidget;
  const json = { 'content-type': 'application/json' };

  beforeAll(async () => {
    t = await createTestApp({ workers: false });
    widget = await createWidget(t);
  });
  afterAll(() => t.close());

  it('agent API: a role under __proto__ or constructor is not read; the body is refused as it would be without it', async () => {
    for (const [n, wrapped] of [
      [1, '"__proto__":{"role":"admin"}'],
      [2, '"constructor":{"prototype":{"role":"admin"}}'],
      [3, '"constructor":{"role":"admin"}'],
    ] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/agents',
        headers: { ...bearer(t.adminToken), ...json },
        payload: `{"name":"Proto ${n}","email":"proto${n}@example.com","password":"proto-password-1",${wrapped}}`,
      });
      expect(res.statusCode, wrapped).toBe(400);
      expect(res.json<{ error: { code: string } }>().error.code).toBe('validation_failed');
    }
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/v1/agents',
      headers: { ...bearer(t.adminToken), ...json },
      payload:
        '{"name":"Proto","email":"proto@example.com","password":"proto-password-1","role":"agent","__proto__":{"role":"admin"},"constructor":{"role":"admin"}}',
    });
    expect(ok.statusCode).toBe(201);
    expect(ok.json()).toMatchObject({ role: 'agent' });
  });

  it('widget API: a message only under __proto__ is refused; client attributes never keep such keys', async () => {
    const s = await startSession(t, widget.widget_id);
    const call = (path: string, payload: string) => visitorCall(t, widget.widget_id, s.visitor_token, path, payload, { headers: json });
    expect((await call('messages', '{"__proto__":{"type":"text","text":"hi"}}')).statusCode).toBe(400);
    expect((await call('messages', '{"constructor":{"prototype":{"type":"text","text":"hi"}}}')).statusCode).toBe(400);
    expect((await call('attributes', '{"attributes":{"plan":"pro","constructor":"x","\\u005f_proto__":{"seats":1}}}')).statusCode).toBe(204);
    const visitor = await t.app.ctx.db.selectFrom('visitors').select('session_json').where('number', '=', s.visitor.number).executeTakeFirstOrThrow();
    expect((JSON.parse(visitor.session_json) as { attributes: unknown }).attributes).toStrictEqual({ plan: 'pro' });
  });
});
