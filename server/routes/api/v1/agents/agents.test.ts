import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAgent, createOtherAccount, rowsOf } from '../../../../../test/helpers/accounts.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer, createTestApp, type TestApp } from '../../../../../test/helpers/testApp.js';

describe('/api/v1/agents', () => {
  let t: TestApp;
  let adminId: number;
  const post = (payload: Record<string, unknown>, token = t.adminToken) =>
    t.app.inject({ method: 'POST', url: '/api/v1/agents', headers: bearer(token), payload });
  const patch = (id: number, payload: Record<string, unknown>, token = t.adminToken) =>
    t.app.inject({ method: 'PATCH', url: `/api/v1/agents/${id}`, headers: bearer(token), payload });
  const get = (url: string, token = t.adminToken) => t.app.inject({ method: 'GET', url, headers: bearer(token) });

  beforeAll(async () => {
    t = await createTestApp();
    adminId = (await get('/api/v1/me')).json().id;
  });
  afterAll(async () => {
    await t.close();
  });

  it('creates an agent: 201, e-mail lower-cased, password hashed, never shown', async () => {
    const res = await post({ name: ' Ann ', email: 'Ann@Example.COM', password: 'ann-password', role: 'agent', phone: '+15550100111' });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toEqual({
      id: expect.any(Number),
      name: 'Ann',
      email: 'ann@example.com',
      role: 'agent',
      status: 'offline',
      phone: '+15550100111',
      photo_url: null,
      active: true,
      created_at: expect.any(Number),
      language: null,
      department_ids: [],
    });
    const row = await t.app.ctx.db.selectFrom('agents').selectAll().where('id', '=', body.id).executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^scrypt\$/);
    expect(row.password_hash).not.toContain('ann-password');
    expect(await t.login('ANN@example.com', 'ann-password')).toEqual(expect.any(String));
  });

  it('refuses a duplicate e-mail (any case) with 409 email_taken and stores nothing', async () => {
    const before = await rowsOf(t, 'agents');
    const res = await post({ name: 'Dup', email: ADMIN_EMAIL.toUpperCase(), password: 'long-enough', role: 'agent' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: { code: 'email_taken', message: expect.any(String) } });
    expect(await rowsOf(t, 'agents')).toEqual(before);
  });

  it.each([
    [{ name: 'X', email: 'x@example.com', password: 'short', role: 'agent' }, /at least 8/],
    [{ name: 'X', email: 'not-an-email', password: 'long-enough', role: 'agent' }, /e-mail/],
    [{ name: '   ', email: 'x@example.com', password: 'long-enough', role: 'agent' }, /name/],
    [{ name: 'X', email: 'x@example.com', password: 'long-enough', role: 'owner' }, /role/],
    [{ email: 'x@example.com', password: 'long-enough', role: 'agent' }, /name/],
    [{ name: 'X', email: 'x@example.com', password: 12345678, role: 'agent' }, /password/],
  ])('refuses bad input %j with a clear 400 and stores nothing', async (payload, message) => {
    const before = await rowsOf(t, 'agents');
    const res = await post(payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('validation_failed');
    expect(res.json().error.message).toMatch(message);
    expect(await rowsOf(t, 'agents')).toEqual(before);
  });

  it('answers 403 to an agent for admin calls, but lets it list its account', async () => {
    const { id, token } = await addAgent(t, { email: 'plain@example.com' });
    const before = await rowsOf(t, 'agents');
    const create = await post({ name: 'Y', email: 'y@example.com', password: 'long-enough', role: 'admin' }, token);
    expect(create.statusCode).toBe(403);
    expect(create.json().error.code).toBe('forbidden');
    expect((await patch(id, { role: 'admin' }, token)).statusCode).toBe(403);
    expect(await rowsOf(t, 'agents')).toEqual(before);
    const list = await get('/api/v1/agents', token);
    expect(list.statusCode).toBe(200);
    expect(list.json().map((a: { email: string }) => a.email)).toContain(ADMIN_EMAIL);
    expect((await get(`/api/v1/agents/${adminId}`, token)).json().email).toBe(ADMIN_EMAIL);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/agents' })).statusCode).toBe(401);
  });

  it('lists newest first with ?limit and ?before, and refuses bad paging', async () => {
    for (const n of [1, 2, 3]) await addAgent(t, { email: `page${n}@example.com` });
    const all = (await get('/api/v1/agents')).json<{ id: number }[]>();
    const ids = all.map((a) => a.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const first = (await get('/api/v1/agents?limit=2')).json<{ id: number }[]>();
    expect(first.map((a) => a.id)).toEqual(ids.slice(0, 2));
    const next = (await get(`/api/v1/agents?limit=2&before=${first[1].id}`)).json<{ id: number }[]>();
    expect(next.map((a) => a.id)).toEqual(ids.slice(2, 4));
    for (const q of ['limit=0', 'limit=abc', 'limit=1001', 'limit=2.5', 'before=x', 'before=-1']) {
      const res = await get(`/api/v1/agents?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().error.message).toMatch(/limit|before/);
    }
    expect((await get('/api/v1/agents?limit=1000')).statusCode).toBe(200);
  });

  it('reads one agent; unknown or malformed ids are 404', async () => {
    expect((await get(`/api/v1/agents/${adminId}`)).json()).toMatchObject({ id: adminId, email: ADMIN_EMAIL });
    expect((await get('/api/v1/agents/999999')).statusCode).toBe(404);
    expect((await get('/api/v1/agents/abc')).statusCode).toBe(404);
    expect((await get('/api/v1/agents/99999999999')).statusCode).toBe(404);
  });

  it('changes name, phone, role and password; a new password revokes the old sessions', async () => {
    const { id, token } = await addAgent(t, { email: 'change@example.com' });
    const res = await patch(id, { name: 'Changed', phone: '+15550100222', role: 'admin', password: 'brand-new-pass' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id, name: 'Changed', phone: '+15550100222', role: 'admin' });
    expect((await get('/api/v1/me', token)).statusCode).toBe(401);
    await expect(t.login('change@example.com', 'agent-password-1')).rejects.toThrow();
    const fresh = await t.login('change@example.com', 'brand-new-pass');
    expect((await patch(id, { phone: null }, fresh)).json().phone).toBeNull();
    const before = await rowsOf(t, 'agents');
    expect((await patch(id, { password: 'short' })).statusCode).toBe(400);
    expect((await patch(id, { name: '' })).statusCode).toBe(400);
    expect((await patch(id, { role: 'boss' })).statusCode).toBe(400);
    expect(await rowsOf(t, 'agents')).toEqual(before);
  });

  it("sets an agent's departments (replacing them), lists them, refuses other accounts' ones; a deleted department is left", async () => {
    const { id, token } = await addAgent(t, { email: 'deps@example.com' });
    const dep = async (name: string) =>
      (await t.app.inject({ method: 'POST', url: '/api/v1/departments', headers: bearer(t.adminToken), payload: { name } })).json<{ id: number }>().id;
    const sales = await dep('Sales');
    const billing = await dep('Billing');
    const res = await patch(id, { department_ids: [billing, sales, billing] });
    expect(res.statusCode).toBe(200);
    expect(res.json().department_ids).toEqual([sales, billing].sort((a, b) => a - b));
    expect((await get(`/api/v1/agents/${id}`)).json().department_ids).toEqual([sales, billing].sort((a, b) => a - b));
    // Agents read their colleagues' departments too.
    const listed = (await get('/api/v1/agents', token)).json<Array<{ id: number; department_ids: number[] }>>();
    expect(listed.find((a) => a.id === id)?.department_ids).toHaveLength(2);
    expect(listed.find((a) => a.id === adminId)?.department_ids).toEqual([]);
    expect((await patch(id, { department_ids: [sales] })).json().department_ids).toEqual([sales]);

    const other = await createOtherAccount(t, 'deps-boss@other.example');
    const theirs = (await t.app.inject({ method: 'POST', url: '/api/v1/departments', headers: bearer(other.token), payload: { name: 'Theirs' } })).json<{
      id: number;
    }>().id;
    const before = await rowsOf(t, 'agent_departments');
    const refused = await patch(id, { department_ids: [sales, theirs] });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.message).toBe(`department_ids must name departments of this account; ${theirs} is not.`);
    expect((await patch(id, { department_ids: ['x'] })).statusCode).toBe(400);
    // Beyond the ids a table holds (PostgreSQL's integer): refused, never a database error.
    expect((await patch(id, { department_ids: [3_000_000_000] })).statusCode).toBe(400);
    expect((await patch(id, { department_ids: [sales] }, token)).statusCode).toBe(403);
    expect(await rowsOf(t, 'agent_departments')).toEqual(before);

    expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/departments/${sales}`, headers: bearer(t.adminToken) })).statusCode).toBe(204);
    expect((await get(`/api/v1/agents/${id}`)).json().department_ids).toEqual([]);
    expect((await patch(id, { department_ids: [] })).json().department_ids).toEqual([]);
  });

  it('deactivation revokes the tokens, sets offline and blocks sign-in', async () => {
    const { id, token } = await addAgent(t, { email: 'leaving@example.com' });
    await t.app.inject({ method: 'PUT', url: '/api/v1/me/status', headers: bearer(token), payload: { status: 'online' } });
    const res = await patch(id, { active: false });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ active: false, status: 'offline' });
    expect((await get('/api/v1/me', token)).statusCode).toBe(401);
    await expect(t.login('leaving@example.com', 'agent-password-1')).rejects.toThrow(/401/);
    expect((await patch(id, { active: true })).json().active).toBe(true);
    expect(await t.login('leaving@example.com', 'agent-password-1')).toEqual(expect.any(String));
  });

  it('keeps one active administrator: the last one may not demote or deactivate itself', async () => {
    const other = await createOtherAccount(t, 'solo@other.example');
    const before = await rowsOf(t, 'agents');
    for (const change of [{ role: 'agent' }, { active: false }]) {
      const res = await patch(other.adminId, change, other.token);
      expect(res.statusCode).toBe(409);
      expect(res.json().error).toEqual({ code: 'conflict', message: expect.stringMatching(/last active administrator/) });
    }
    expect(await rowsOf(t, 'agents')).toEqual(before);
    // With a second admin, stepping down is allowed.
    const second = await addAgent(t, { email: 'second-admin@example.com', role: 'admin' });
    expect((await patch(second.id, { role: 'agent' }, second.token)).statusCode).toBe(200);
  });

  it("never shows or changes another account's agents", async () => {
    const other = await createOtherAccount(t, 'boss2@other.example');
    const list = (await get('/api/v1/agents', other.token)).json<{ id: number }[]>();
    expect(list.map((a) => a.id)).toEqual([other.adminId]);
    expect((await get(`/api/v1/agents/${adminId}`, other.token)).statusCode).toBe(404);
    const before = await rowsOf(t, 'agents');
    const res = await patch(adminId, { name: 'Hijacked', active: false }, other.token);
    expect(res.statusCode).toBe(404);
    expect(await rowsOf(t, 'agents')).toEqual(before);
    expect(await t.login(ADMIN_EMAIL, ADMIN_PASSWORD)).toEqual(expect.any(String));
  });

  it('documents the routes in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(doc.paths['/api/v1/agents'].post.security).toEqual([{ bearer: [] }]);
    expect(doc.paths['/api/v1/agents/{id}'].patch.tags).toEqual(['agents']);
  });
});
