/**
 * Widget invitation rules in the account settings (PUT /api/v1/settings
 * {rules}): the format of docs/WIDGET.md is checked exactly, a refusal is a
 * 400 sentence that stores nothing, null clears, and the widget session
 * response carries what was saved.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAgent, createOtherAccount, rowsOf } from '../../../../../test/helpers/accounts.js';
import { bearer, createTestApp, type TestApp } from '../../../../../test/helpers/testApp.js';
import { createWidget, startSession } from '../../../../../test/helpers/widget.js';

const rule = (extra: Record<string, unknown> = {}) => ({
  id: 'pricing-help',
  conditions: { seconds_on_page: 20, url_contains: '/pricing', url_matches: '^https://shop\\.example\\.com/', min_visits: 2 },
  action: { type: 'invitation', text: 'Questions about our plans?' },
  ...extra,
});

describe('/api/v1/settings rules', () => {
  let t: TestApp;
  let departmentId: number;
  const get = (token = t.adminToken) => t.app.inject({ method: 'GET', url: '/api/v1/settings', headers: bearer(token) });
  const put = (payload: unknown, token = t.adminToken) =>
    t.app.inject({ method: 'PUT', url: '/api/v1/settings', headers: bearer(token), payload: payload as Record<string, unknown> });

  beforeAll(async () => {
    t = await createTestApp();
    const dept = await t.app.inject({ method: 'POST', url: '/api/v1/departments', headers: bearer(t.adminToken), payload: { name: 'Sales' } });
    departmentId = dept.json().id;
  });
  afterAll(async () => {
    await t.close();
  });

  it('stores the rules, returns them, leaves other keys alone, and null clears them', async () => {
    const before = (await get()).json();
    expect(before.rules).toBeNull();
    const rules = {
      rules: [
        rule({ action: { type: 'invitation', text: '  Questions about our plans? ', department_id: departmentId } }),
        { id: 7, conditions: {}, action: { type: 'invitation', text: 'Hi' } },
      ],
    };
    const res = await put({ rules });
    expect(res.statusCode).toBe(200);
    const stored = {
      rules: [
        rule({ action: { type: 'invitation', text: 'Questions about our plans?', department_id: departmentId } }),
        { id: 7, conditions: {}, action: { type: 'invitation', text: 'Hi' } },
      ],
    };
    expect(res.json()).toEqual({ ...before, rules: stored });
    expect((await get()).json().rules).toEqual(stored);
    // A partial change without rules keeps them; a GET sent back as is is accepted.
    expect((await put({ safe_url: 'https://shop.example.com' })).json().rules).toEqual(stored);
    expect((await put((await get()).json())).statusCode).toBe(200);
    expect((await put({ rules: null })).json().rules).toBeNull();
  });

  it('takes rules given as a bare array as {rules}, missing conditions as none, and 50 rules', async () => {
    // The settings body itself must be an object.
    expect((await put([{ id: 'a', action: { type: 'invitation', text: 'Hello' } }])).statusCode).toBe(400);
    const bare = await put({ rules: [{ id: 'a', action: { type: 'invitation', text: 'Hello' } }] });
    expect(bare.json().rules).toEqual({ rules: [{ id: 'a', conditions: {}, action: { type: 'invitation', text: 'Hello' } }] });
    const many = Array.from({ length: 50 }, (_, i) => rule({ id: `r${i}` }));
    expect((await put({ rules: { rules: many } })).json().rules.rules).toHaveLength(50);
    expect((await put({ rules: { rules: [] } })).json().rules).toEqual({ rules: [] });
  });

  it.each([
    [{ rules: 'show always' }, /rules must be an object \{rules: \[\.\.\.\]\}/],
    [{ rules: { rules: {} } }, /rules must be an object/],
    [{ rules: { list: [] } }, /unknown key "list"/],
    [{ rules: { rules: Array.from({ length: 51 }, (_, i) => rule({ id: `r${i}` })) } }, /at most 50 rules \(got 51\)/],
    [{ rules: { rules: ['x'] } }, /rules\[0\] must be an object/],
    [{ rules: { rules: [rule({ id: '' })] } }, /rules\[0\]\.id must be a non-empty string/],
    [{ rules: { rules: [rule({ id: undefined })] } }, /rules\[0\]\.id/],
    [{ rules: { rules: [rule(), rule()] } }, /rules\[1\]\.id "pricing-help" is used by an earlier rule/],
    [{ rules: { rules: [rule({ when: 'now' })] } }, /rules\[0\] has unknown key "when"/],
    [{ rules: { rules: [rule({ conditions: { url_contain: '/x' } })] } }, /rules\[0\]\.conditions has unknown key "url_contain"/],
    [{ rules: { rules: [rule({ conditions: [] })] } }, /conditions must be an object/],
    [{ rules: { rules: [rule({ conditions: { seconds_on_page: -1 } })] } }, /seconds_on_page must be a number from 0 to 86400/],
    [{ rules: { rules: [rule({ conditions: { seconds_on_page: 86401 } })] } }, /seconds_on_page/],
    [{ rules: { rules: [rule({ conditions: { seconds_on_page: '20' } })] } }, /seconds_on_page/],
    [{ rules: { rules: [rule({ conditions: { min_visits: 1.5 } })] } }, /min_visits must be a whole number/],
    [{ rules: { rules: [rule({ conditions: { url_contains: '' } })] } }, /url_contains must be a non-empty string/],
    [{ rules: { rules: [rule({ conditions: { url_matches: '(' } })] } }, /url_matches is not a valid JavaScript regular expression/],
    [{ rules: { rules: [rule({ conditions: { url_matches: 'a'.repeat(501) } })] } }, /url_matches must have at most 500 characters/],
    [{ rules: { rules: [rule({ action: { type: 'popup', text: 'x' } })] } }, /action\.type must be "invitation"/],
    [{ rules: { rules: [rule({ action: undefined })] } }, /rules\[0\]\.action must be \{type: "invitation"/],
    [{ rules: { rules: [rule({ action: { type: 'invitation', text: '   ' } })] } }, /action\.text must be a non-empty string/],
    [{ rules: { rules: [rule({ action: { type: 'invitation', text: 'x'.repeat(501) } })] } }, /action\.text must have at most 500 characters/],
    [{ rules: { rules: [rule({ action: { type: 'invitation', text: 'x', department_id: '3' } })] } }, /department_id must be the id of a department/],
    [
      { rules: { rules: [rule({ action: { type: 'invitation', text: 'x', department_id: 999999 } })] } },
      /must name departments of this account; 999999 is not/,
    ],
    [{ rules: { rules: [rule({ action: { type: 'invitation', text: 'x', color: 'red' } })] } }, /action has unknown key "color"/],
  ])('refuses %j with a clear 400 and stores nothing', async (payload, message) => {
    const before = await rowsOf(t, 'settings');
    const res = await put(payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toEqual({ code: 'validation_failed', message: expect.stringMatching(message) });
    expect(await rowsOf(t, 'settings')).toEqual(before);
  });

  it('accepts a 500-character invitation and pattern exactly', async () => {
    const res = await put({
      rules: { rules: [rule({ conditions: { url_matches: 'a'.repeat(500) }, action: { type: 'invitation', text: 'x'.repeat(500) } })] },
    });
    expect(res.statusCode).toBe(200);
  });

  it("reaches the widget: the session response carries the account's rules", async () => {
    const widget = await createWidget(t);
    const stored = (await put({ rules: { rules: [rule()] } })).json().rules;
    const session = await startSession(t, widget.widget_id);
    expect(session.settings.rules).toEqual(stored);
    await put({ rules: null });
    expect((await startSession(t, widget.widget_id)).settings.rules).toBeNull();
  });

  it("answers 403 to agents and keeps accounts apart (another account's department is refused)", async () => {
    const { token } = await addAgent(t, { email: 'rules-agent@example.com' });
    const before = await rowsOf(t, 'settings');
    for (const payload of [{ rules: { rules: [rule()] } }, { rules: 'bad' }, { rules: null }]) {
      const res = await put(payload, token);
      expect(res.statusCode).toBe(403);
      expect(res.json().error.code).toBe('forbidden');
    }
    expect(await rowsOf(t, 'settings')).toEqual(before);

    await put({ rules: { rules: [rule()] } });
    const other = await createOtherAccount(t);
    expect((await get(other.token)).json().rules).toBeNull();
    const theirs = await put({ rules: { rules: [rule({ action: { type: 'invitation', text: 'x', department_id: departmentId } })] } }, other.token);
    expect(theirs.statusCode).toBe(400);
    expect(theirs.json().error.message).toMatch(new RegExp(`${departmentId} is not`));
    expect((await put({ rules: null }, other.token)).statusCode).toBe(200);
    expect((await get()).json().rules).toEqual({ rules: [rule()] });
  });
});
