import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAgent, createOtherAccount, rowsOf } from '../../../../../test/helpers/accounts.js';
import { bearer, createTestApp, type TestApp } from '../../../../../test/helpers/testApp.js';

describe('/api/v1/departments', () => {
  let t: TestApp;
  let agentToken: string;
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: Record<string, unknown>, token = t.adminToken) =>
    t.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    t = await createTestApp();
    agentToken = (await addAgent(t, { email: 'dept-agent@example.com' })).token;
  });
  afterAll(async () => {
    await t.close();
  });

  it('creates, lists newest first, renames and deletes', async () => {
    const sales = await call('POST', '/api/v1/departments', { name: ' Sales ' });
    expect(sales.statusCode).toBe(201);
    expect(sales.json()).toEqual({ id: expect.any(Number), name: 'Sales' });
    const support = (await call('POST', '/api/v1/departments', { name: 'Support' })).json();
    const list = await call('GET', '/api/v1/departments');
    expect(list.json()).toEqual([support, sales.json()]);
    expect((await call('GET', '/api/v1/departments?limit=1')).json()).toEqual([support]);
    expect((await call('GET', `/api/v1/departments?before=${support.id}`)).json()).toEqual([sales.json()]);
    expect((await call('GET', '/api/v1/departments?limit=-3')).statusCode).toBe(400);

    const renamed = await call('PATCH', `/api/v1/departments/${support.id}`, { name: 'Help desk' });
    expect(renamed.json()).toEqual({ id: support.id, name: 'Help desk' });
    const removed = await call('DELETE', `/api/v1/departments/${support.id}`);
    expect(removed.statusCode).toBe(204);
    expect(removed.body).toBe('');
    expect((await call('GET', '/api/v1/departments')).json()).toEqual([sales.json()]);
    expect((await call('DELETE', `/api/v1/departments/${support.id}`)).statusCode).toBe(404);
    expect((await call('PATCH', '/api/v1/departments/abc', { name: 'X' })).statusCode).toBe(404);
  });

  it('refuses an empty or missing name with 400 and stores nothing', async () => {
    const dept = (await call('POST', '/api/v1/departments', { name: 'Keep' })).json();
    const before = await rowsOf(t, 'departments');
    for (const payload of [{ name: '' }, { name: '   ' }, {}, { name: 7 }, { name: 'x'.repeat(201) }]) {
      const res = await call('POST', '/api/v1/departments', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error.code).toBe('validation_failed');
      expect((await call('PATCH', `/api/v1/departments/${dept.id}`, payload)).statusCode).toBe(400);
    }
    expect(await rowsOf(t, 'departments')).toEqual(before);
  });

  it('lets agents list but answers 403 to their changes', async () => {
    const dept = (await call('POST', '/api/v1/departments', { name: 'Billing' })).json();
    const before = await rowsOf(t, 'departments');
    expect((await call('GET', '/api/v1/departments', undefined, agentToken)).statusCode).toBe(200);
    for (const [method, url, payload] of [
      ['POST', '/api/v1/departments', { name: 'Nope' }],
      ['PATCH', `/api/v1/departments/${dept.id}`, { name: 'Nope' }],
      ['DELETE', `/api/v1/departments/${dept.id}`, undefined],
    ] as const) {
      const res = await call(method, url, payload, agentToken);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().error.code).toBe('forbidden');
    }
    expect(await rowsOf(t, 'departments')).toEqual(before);
  });

  it('keeps accounts apart: another account sees none and gets 404', async () => {
    const dept = (await call('POST', '/api/v1/departments', { name: 'Private' })).json();
    const other = await createOtherAccount(t);
    expect((await call('GET', '/api/v1/departments', undefined, other.token)).json()).toEqual([]);
    const before = await rowsOf(t, 'departments');
    expect((await call('PATCH', `/api/v1/departments/${dept.id}`, { name: 'Mine' }, other.token)).statusCode).toBe(404);
    expect((await call('DELETE', `/api/v1/departments/${dept.id}`, undefined, other.token)).statusCode).toBe(404);
    expect(await rowsOf(t, 'departments')).toEqual(before);
  });
});
