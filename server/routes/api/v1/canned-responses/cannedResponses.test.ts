/** /api/v1/canned-responses: admin CRUD, shortcut rules and duplicates (409), agents list but may not change, accounts kept apart. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAgent, createOtherAccount, rowsOf } from '../../../../../test/helpers/accounts.js';
import { bearer, createTestApp, type TestApp } from '../../../../../test/helpers/testApp.js';

describe('/api/v1/canned-responses', () => {
  let t: TestApp;
  let agentToken: string;
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown, token = t.adminToken) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
  const create = (payload: Record<string, unknown>, token = t.adminToken) => call('POST', '/canned-responses', payload, token);

  beforeAll(async () => {
    t = await createTestApp();
    agentToken = (await addAgent(t, { email: 'canned-agent@example.com' })).token;
  });
  afterAll(async () => {
    await t.close();
  });

  it('creates (shortcut cleaned), lists newest first with paging, changes and deletes', async () => {
    const hello = await create({ shortcut: ' /Hello ', title: ' Greeting ', text: 'Hello!\nHow can I help you today?' });
    expect(hello.statusCode).toBe(201);
    expect(hello.json()).toEqual({
      id: expect.any(Number),
      shortcut: 'hello',
      title: 'Greeting',
      text: 'Hello!\nHow can I help you today?',
      created_at: expect.any(Number),
      updated_at: expect.any(Number),
    });
    const refund = (await create({ shortcut: 'refund_policy-2', title: 'Refunds', text: 'Refunds take 5 days.' })).json();
    expect((await call('GET', '/canned-responses')).json()).toEqual([refund, hello.json()]);
    expect((await call('GET', '/canned-responses?limit=1')).json()).toEqual([refund]);
    expect((await call('GET', `/canned-responses?before=${refund.id}`)).json()).toEqual([hello.json()]);
    expect((await call('GET', '/canned-responses?limit=0')).statusCode).toBe(400);

    const changed = await call('PATCH', `/canned-responses/${refund.id}`, { text: 'Refunds take 3 days.' });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toEqual({ ...refund, text: 'Refunds take 3 days.', updated_at: expect.any(Number) });
    // Renaming a shortcut to itself is not a duplicate.
    expect((await call('PATCH', `/canned-responses/${refund.id}`, { shortcut: 'REFUND_POLICY-2', title: 'Refund policy' })).json()).toMatchObject({
      shortcut: 'refund_policy-2',
      title: 'Refund policy',
    });
    expect((await call('PATCH', `/canned-responses/${refund.id}`, {})).statusCode).toBe(200);

    const removed = await call('DELETE', `/canned-responses/${refund.id}`);
    expect(removed.statusCode).toBe(204);
    expect(removed.body).toBe('');
    expect((await call('GET', '/canned-responses')).json()).toEqual([hello.json()]);
    expect((await call('DELETE', `/canned-responses/${refund.id}`)).statusCode).toBe(404);
    expect((await call('PATCH', `/canned-responses/${refund.id}`, { title: 'x' })).statusCode).toBe(404);
    expect((await call('PATCH', '/canned-responses/abc', { title: 'x' })).statusCode).toBe(404);
  });

  it('answers 409 shortcut_taken for a shortcut the account already has, on create and on change', async () => {
    const a = (await create({ shortcut: 'dup-a', title: 'A', text: 'a' })).json();
    const b = (await create({ shortcut: 'dup-b', title: 'B', text: 'b' })).json();
    const before = await rowsOf(t, 'canned_responses');
    const again = await create({ shortcut: 'DUP-A', title: 'Again', text: 'x' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toEqual({ code: 'shortcut_taken', message: expect.stringContaining('/dup-a') });
    const renamed = await call('PATCH', `/canned-responses/${b.id}`, { shortcut: a.shortcut });
    expect(renamed.statusCode).toBe(409);
    expect(renamed.json().error.code).toBe('shortcut_taken');
    expect(await rowsOf(t, 'canned_responses')).toEqual(before);
  });

  it('two admins adding the same shortcut at once: exactly one wins', async () => {
    const results = await Promise.all([create({ shortcut: 'race', title: '1', text: '1' }), create({ shortcut: 'race', title: '2', text: '2' })]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409]);
  });

  it.each([
    [{ shortcut: '', title: 'T', text: 'x' }, /shortcut must be 1 to 32 characters/],
    [{ shortcut: 'has space', title: 'T', text: 'x' }, /shortcut/],
    [{ shortcut: 'dots.not.ok', title: 'T', text: 'x' }, /shortcut/],
    [{ shortcut: 'x'.repeat(33), title: 'T', text: 'x' }, /shortcut/],
    [{ shortcut: 'ünicode', title: 'T', text: 'x' }, /shortcut/],
    [{ shortcut: 'ok', title: '  ', text: 'x' }, /title must not be empty/],
    [{ shortcut: 'ok', title: 'x'.repeat(201), text: 'x' }, /title must have at most 200/],
    [{ shortcut: 'ok', title: 'T', text: '' }, /text must not be empty/],
    [{ shortcut: 'ok', title: 'T', text: 'x'.repeat(2001) }, /text must have at most 2000/],
    [{ shortcut: 'ok', title: 'T' }, /text/],
    [{ shortcut: 5, title: 'T', text: 'x' }, /shortcut must be string/],
  ])('refuses %j with a clear 400 and stores nothing', async (payload, message) => {
    const before = await rowsOf(t, 'canned_responses');
    const res = await create(payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toEqual({ code: 'validation_failed', message: expect.stringMatching(message) });
    expect(await rowsOf(t, 'canned_responses')).toEqual(before);
  });

  it('accepts the longest text and shortcut', async () => {
    const res = await create({ shortcut: 'a'.repeat(32), title: 'Long', text: 'y'.repeat(2000) });
    expect(res.statusCode).toBe(201);
    expect(res.json().text).toHaveLength(2000);
  });

  it('lets agents list but answers 403 to their changes, even with a bad body', async () => {
    const c = (await create({ shortcut: 'agent-view', title: 'Seen', text: 'by agents' })).json();
    const before = await rowsOf(t, 'canned_responses');
    const listed = await call('GET', '/canned-responses', undefined, agentToken);
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toContainEqual(c);
    for (const [method, url, payload] of [
      ['POST', '/canned-responses', { shortcut: 'nope', title: 'N', text: 'n' }],
      ['POST', '/canned-responses', { shortcut: 5 }],
      ['PATCH', `/canned-responses/${c.id}`, { text: 'changed' }],
      ['DELETE', `/canned-responses/${c.id}`, undefined],
    ] as const) {
      const res = await call(method, url, payload, agentToken);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().error.code).toBe('forbidden');
    }
    expect(await rowsOf(t, 'canned_responses')).toEqual(before);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/canned-responses' })).statusCode).toBe(401);
  });

  it("keeps accounts apart: own list only, 404 on the other's rows, the same shortcut allowed in each", async () => {
    const mine = (await create({ shortcut: 'shared-name', title: 'Mine', text: 'mine' })).json();
    const other = await createOtherAccount(t);
    expect((await call('GET', '/canned-responses', undefined, other.token)).json()).toEqual([]);
    const before = await rowsOf(t, 'canned_responses');
    expect((await call('PATCH', `/canned-responses/${mine.id}`, { text: 'stolen' }, other.token)).statusCode).toBe(404);
    expect((await call('DELETE', `/canned-responses/${mine.id}`, undefined, other.token)).statusCode).toBe(404);
    expect(await rowsOf(t, 'canned_responses')).toEqual(before);
    const theirs = await create({ shortcut: 'shared-name', title: 'Theirs', text: 'theirs' }, other.token);
    expect(theirs.statusCode).toBe(201);
    expect((await call('GET', '/canned-responses', undefined, other.token)).json()).toEqual([theirs.json()]);
    expect((await call('GET', '/canned-responses')).json()).not.toContainEqual(theirs.json());
  });
});
