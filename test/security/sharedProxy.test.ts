/**
 * Sign-in throttling behind a proxy TRUST_PROXY does not list (#31 item 14),
 * both stores: the proxy's address is shared, so the throttle counts the
 * client behind it (the last X-Forwarded-For address) — a person whose own
 * address has no failures (and who signed in from it before) signs in after
 * 100 failures of someone else through the same proxy — while guessing one
 * account through the proxy from ever-new claimed addresses stops after 20
 * failures of that e-mail, except for a client that signed in with it before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAgent } from '../helpers/accounts.js';
import { createTestApp, type TestApp } from '../helpers/testApp.js';

const PROXY = '10.20.0.1';
/** Another proxy, whose own count the first test has not used up. */
const OTHER = '10.20.0.2';

describe('sign-in throttling behind an untrusted, shared proxy', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { TRUST_PROXY: '0' } });
  });
  afterAll(async () => t.close());

  const signIn = (email: string, password: string, client: string, proxy = PROXY) =>
    t.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email, password }, remoteAddress: proxy, headers: { 'x-forwarded-for': client } });

  it('someone’s 100 failures through the proxy do not block another person behind it', async () => {
    await addAgent(t, { email: 'behind@example.com', password: 'behind-password-1' });
    // The person has signed in from their own address before (once is enough, for 30 days).
    expect((await signIn('behind@example.com', 'behind-password-1', '198.51.100.8')).statusCode).toBe(200);
    let refused = 0;
    for (let i = 0; i < 105; i++) {
      const res = await signIn(`guess${i}@example.com`, 'wrong-password-1', '198.51.100.7');
      if (res.statusCode === 429) refused++;
    }
    // The guesser itself waits, and so does a sign-in from an address never seen with that e-mail …
    expect(refused).toBeGreaterThan(0);
    expect((await signIn('behind@example.com', 'behind-password-1', '198.51.100.9')).statusCode).toBe(429);
    // … but not the person from their own address, which has no failures.
    expect((await signIn('behind@example.com', 'behind-password-1', '198.51.100.8')).statusCode).toBe(200);
  });

  it('guessing one account from ever-new claimed addresses stops after 20 failures, not for a client known for it', async () => {
    await addAgent(t, { email: 'target@example.com', password: 'target-password-1' });
    expect((await signIn('target@example.com', 'target-password-1', '198.51.100.50', OTHER)).statusCode).toBe(200);
    const answers: number[] = [];
    for (let i = 0; i < 25; i++) answers.push((await signIn('target@example.com', 'wrong-password-1', `203.0.113.${i}`, OTHER)).statusCode);
    expect(answers.slice(0, 20).every((s) => s === 401)).toBe(true);
    expect(answers.slice(21)).toEqual([429, 429, 429, 429]);
    // A new claimed address waits, even with the right password (the guesser learns nothing) …
    expect((await signIn('target@example.com', 'target-password-1', '203.0.113.200', OTHER)).statusCode).toBe(429);
    // … the person's own client, known for the e-mail, signs in.
    expect((await signIn('target@example.com', 'target-password-1', '198.51.100.50', OTHER)).statusCode).toBe(200);
  });
});
