/**
 * PATCH /api/v1/me: a person changes its own name, phone, photo link and language;
 * bad values are refused with a 400 saying what is wrong and change nothing;
 * role and e-mail cannot be changed this way.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAgent } from '../../../../../test/helpers/accounts.js';
import { bearer, createTestApp, type TestApp } from '../../../../../test/helpers/testApp.js';

describe('PATCH /api/v1/me', () => {
  let t: TestApp;
  let token: string;
  const patch = (payload: unknown, tk = token) => t.app.inject({ method: 'PATCH', url: '/api/v1/me', headers: bearer(tk), payload: payload as object });
  const me = async (tk = token) => (await t.app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(tk) })).json();

  beforeAll(async () => {
    t = await createTestApp();
    await addAgent(t, { email: 'pat@example.com', role: 'agent' });
    token = await t.login('pat@example.com', 'agent-password-1');
  });
  afterAll(() => t.close());

  it('changes the own name, phone and photo link, and tells the other agents', async () => {
    const res = await patch({ name: '  Pat Doe ', phone: '+15550123', photo_url: 'https://cdn.example.com/pat.png' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Pat Doe', phone: '+15550123', photo_url: 'https://cdn.example.com/pat.png', role: 'agent' });
    expect(await me()).toMatchObject({ name: 'Pat Doe' });
    const listed = (await t.app.inject({ method: 'GET', url: '/api/v1/agents', headers: bearer(t.adminToken) })).json<Array<{ email: string; name: string }>>();
    expect(listed.find((a) => a.email === 'pat@example.com')?.name).toBe('Pat Doe');
    expect((await patch({ photo_url: null })).json().photo_url).toBeNull();
  });

  it('refuses bad values with a 400 that names them, and changes nothing', async () => {
    for (const [body, message] of [
      [{ name: '   ' }, /name must not be empty/],
      [{ name: 'x'.repeat(201) }, /at most 200/],
      [{ photo_url: 'javascript:alert(1)' }, /photo_url must be an http/],
      [{ role: 'admin' }, /.+/],
      [{ email: 'new@example.com' }, /.+/],
      [{ name: 5 }, /.+/],
    ] as const) {
      const res = await patch(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.message).toMatch(message);
    }
    expect(await me()).toMatchObject({ name: 'Pat Doe', role: 'agent', email: 'pat@example.com' });
  });

  it('keeps the agent app language the person chose (a BCP 47 tag it speaks), null follows the browser', async () => {
    expect((await me()).language).toBeNull();
    expect((await patch({ language: 'de' })).json()).toMatchObject({ language: 'de', name: 'Pat Doe' });
    expect((await me()).language).toBe('de');
    expect((await patch({ language: 'pt-BR' })).json().language).toBe('pt');
    for (const language of ['xx', 'klingon', 5, 'a'.repeat(40)]) {
      const res = await patch({ language });
      expect(res.statusCode, String(language)).toBe(400);
      expect(res.json().error.message).toMatch(/language/);
    }
    expect((await me()).language).toBe('pt');
    expect((await patch({ language: null })).json().language).toBeNull();
    expect((await me()).language).toBeNull();
  });

  it('needs a signed-in person', async () => {
    expect((await t.app.inject({ method: 'PATCH', url: '/api/v1/me', payload: { name: 'X' } })).statusCode).toBe(401);
  });
});
