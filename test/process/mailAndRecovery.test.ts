/**
 * Mail and recovery on the real processes: `npm start` without SMTP_URL logs
 * exactly one line saying mail is not being sent (and none with SMTP_URL);
 * `npm run reset-admin -- <email>` run beside the service prints a one-time
 * password, with exit code 0, that signs in once on the running server (the
 * answer says the password must be changed, and nothing else works until it
 * is), ends the old password, and refuses an unknown address with exit code
 * 1. Runs on SQLite and on PostgreSQL.
 */
import { spawn } from 'node:child_process';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freshStore, type TestStore } from '../helpers/testApp.js';
import { startSmtp } from '../helpers/smtp.js';
import { assertBuilt, freePort, killAll, repoRoot, startServer } from './serverProcess.js';

const EMAIL = 'owner@example.com';
const PASSWORD = 'process-test-password';

/** Runs `npm run reset-admin -- <email>` with the service's environment. */
function resetAdmin(env: Record<string, string>, email: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '--silent', 'reset-admin', '--', email], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/root', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

async function post(base: string, path: string, body: unknown): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as unknown) : null };
}

describe('mail and recovery (npm start, npm run reset-admin)', () => {
  const stores: TestStore[] = [];

  beforeAll(() => {
    assertBuilt();
  });

  afterEach(async () => {
    await killAll();
    for (const store of stores.splice(0)) await store.cleanup();
  });

  it('logs one line that mail is not being sent; reset-admin prints a one-time password that signs in once', { timeout: 90_000 }, async () => {
    const store = freshStore();
    stores.push(store);
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const env = { ...store.env, PORT: String(port), PUBLIC_URL: base, ADMIN_EMAIL: EMAIL, ADMIN_PASSWORD: PASSWORD, LOG_LEVEL: 'info' };
    const server = startServer(env);
    await server.waitReady();
    await server.waitForOutput(/mail is not being sent/);
    const lines = server
      .stdout()
      .split('\n')
      .filter((l) => l.includes('mail is not being sent'));
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0])).toMatchObject({ level: 30, msg: expect.stringContaining('SMTP_URL is not set') });

    const refused = await resetAdmin(env, 'nobody@example.com');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('No one signs in with nobody@example.com');

    const done = await resetAdmin(env, EMAIL);
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toContain(`One-time password for ${EMAIL}`);
    const password = /^ {2}(\S{20})$/m.exec(done.stdout)?.[1] as string;
    expect(password).toMatch(/^[A-Za-z0-9_-]{20}$/);
    expect((await post(base, '/api/v1/auth/login', { email: EMAIL, password: PASSWORD })).status).toBe(401);
    const first = await post(base, '/api/v1/auth/login', { email: EMAIL, password });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ must_change_password: true });
    const auth = { authorization: `Bearer ${(first.body as { token: string }).token}` };
    expect((await fetch(`${base}/api/v1/me`, { headers: auth })).status).toBe(403);
    expect((await post(base, '/api/v1/auth/login', { email: EMAIL, password })).status).toBe(401);
    const changed = await fetch(`${base}/api/v1/me/password`, {
      method: 'PUT',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ current_password: password, new_password: 'recovered-pass-1' }),
    });
    expect(changed.status).toBe(204);
    expect((await fetch(`${base}/api/v1/me`, { headers: auth })).status).toBe(200);
    expect((await post(base, '/api/v1/auth/login', { email: EMAIL, password: 'recovered-pass-1' })).status).toBe(200);
  });

  it('says nothing of the kind with SMTP_URL set', { timeout: 60_000 }, async () => {
    const store = freshStore();
    stores.push(store);
    const smtp = await startSmtp();
    try {
      const server = startServer({
        ...store.env,
        PORT: String(await freePort()),
        SMTP_URL: smtp.url,
        ADMIN_EMAIL: EMAIL,
        ADMIN_PASSWORD: PASSWORD,
        LOG_LEVEL: 'info',
      });
      await server.waitReady();
      await server.waitForOutput(/Server listening/);
      await new Promise((r) => setTimeout(r, 500));
      expect(server.stdout()).not.toContain('mail is not being sent');
    } finally {
      await killAll();
      await smtp.close();
    }
  });
});
