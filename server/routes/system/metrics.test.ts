/**
 * `/metrics` is open when METRICS_TOKEN is unset and requires
 * `Authorization: Bearer $METRICS_TOKEN` when it is set (#15 item 11).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../../../test/helpers/testApp.js';

const TOKEN = 'metrics-secret-0123456789abcdef';

describe('/metrics with METRICS_TOKEN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { METRICS_TOKEN: TOKEN } });
  });
  afterAll(() => t.close());

  it.each([
    ['no Authorization header', {}],
    ['a wrong token', bearer('metrics-secret-0123456789abcdeX')],
    ['an agent session token', () => bearer(t.adminToken)],
    ['the token without Bearer', { authorization: TOKEN }],
  ])('answers 401 unauthorized to %s', async (_name, headers) => {
    const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: typeof headers === 'function' ? headers() : headers });
    expect(res.statusCode).toBe(401);
    expect(res.json().error.message).toContain('METRICS_TOKEN');
    expect(res.body).not.toContain('# HELP');
  });

  it('answers the metrics with the token', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: bearer(TOKEN) });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('# HELP');
  });
});

describe('/metrics without METRICS_TOKEN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('is open', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('# HELP');
  });
});
