/**
 * What a TLS reverse proxy in front of Parley must carry, checked the same
 * way for each shipped recipe (deploy/nginx, deploy/caddy): the real
 * `npm start` behind the real proxy, Chromium talking to it over https and
 * wss only. An agent signs in; a widget on a page of another origin chats
 * with them; failed sign-ins count the client's address, not the proxy's;
 * the largest body Parley takes goes through and a larger one is refused.
 */
import { spawnSync } from 'node:child_process';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser, Page, WebSocket } from 'playwright-core';
import { expect } from 'vitest';
import { WIDGET_UPLOAD_MAX_BYTES } from '../../protocol/widget.js';
import { launchBrowser, screenshot } from '../../e2e/helpers/browser.js';
import { assertBuilt, freePort, startServer, type ServerProcess } from '../process/serverProcess.js';

export { toolsPresent } from './tools.js';

export const ADMIN = { email: 'owner@proxy.example.com', password: 'proxy-test-password-1' };

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One HTTPS request that accepts the test's own certificate, from a chosen local address (a client of its own). */
export function request(
  url: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string | Buffer; localAddress?: string; expectContinue?: boolean } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const lib = u.protocol === 'https:' ? https : http;
    const req = lib.request(
      u,
      { method: opts.method ?? 'GET', headers: opts.headers, localAddress: opts.localAddress, rejectUnauthorized: false, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (!opts.expectContinue) {
      req.end(opts.body);
      return;
    }
    // As curl sends a body over 1 MB: announce it, send it only when the server says to go on.
    req.setHeader('expect', '100-continue');
    req.once('continue', () => {
      if (!req.writableEnded) req.end(opts.body);
    });
    req.flushHeaders();
  });
}

/** A self-signed certificate for 127.0.0.1 and localhost, made by openssl. */
export function selfSignedCertificate(dir: string): { cert: string; key: string } {
  const cert = path.join(dir, 'parley.crt');
  const key = path.join(dir, 'parley.key');
  const subject = ['-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost'];
  const made = spawnSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', ...subject, '-keyout', key, '-out', cert], {
    encoding: 'utf8',
  });
  if (made.status !== 0) throw new Error(`openssl could not make a certificate: ${made.stderr}`);
  return { cert, key };
}

/** The real `npm start` on a fresh DATA_DIR, told it is served at `publicUrl` through a proxy at 127.0.0.1. */
export async function startParleyBehindProxy(dir: string, port: number, publicUrl: string): Promise<ServerProcess> {
  assertBuilt();
  const parley = startServer({
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: path.join(dir, 'data'),
    PUBLIC_URL: publicUrl,
    TRUST_PROXY: '127.0.0.1',
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    LOG_LEVEL: 'warn',
  });
  await parley.waitReady();
  return parley;
}

/** Polls the proxy's https address until Parley's /healthz answers through it. */
export async function waitThroughProxy(base: string, log: () => string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    try {
      const res = await request(`${base}/healthz`);
      if (res.status === 200 && res.body === '{"status":"ok"}') return;
      last = `${res.status} ${res.body.slice(0, 200)}`;
    } catch (err) {
      last = (err as Error).message;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${base}/healthz did not answer 200 through the proxy (last: ${last})\nproxy log:\n${log()}`);
}

async function signIn(base: string, localAddress: string, password: string): Promise<Answer> {
  return request(`${base}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: ADMIN.email, password }),
    localAddress,
  });
}

/** Failed sign-ins from one client make that client wait, not another client behind the same proxy. */
export async function checkClientAddresses(base: string): Promise<void> {
  // The pair (client, e-mail) waits after 5 failures (docs/SECURITY.md §3).
  for (let i = 0; i < 5; i++) expect((await signIn(base, '127.0.0.7', 'wrong-password')).status).toBe(401);
  const waiting = await signIn(base, '127.0.0.7', ADMIN.password);
  expect(waiting.status).toBe(429);
  expect(Number(waiting.headers['retry-after'])).toBeGreaterThan(0);
  // Another client through the same proxy (its connection to Parley comes from the same
  // address) is not that client.
  expect((await signIn(base, '127.0.0.8', ADMIN.password)).status).toBe(200);
}

interface Journey {
  token: string;
  chatId: number;
}

/**
 * In Chromium, over the proxy only: the administrator signs in and goes
 * online; a visitor on a page of another origin (plain http on localhost)
 * opens the widget, writes, and reads the agent's reply. Every WebSocket of
 * both pages is wss through the proxy.
 */
export async function agentAndVisitorChat(base: string, name: string): Promise<Journey> {
  const sockets: string[] = [];
  const track = (page: Page) => page.on('websocket', (ws: WebSocket) => sockets.push(ws.url()));
  const site = http.createServer();
  let browser: Browser | undefined;
  let agent: Page | undefined;
  let visitor: Page | undefined;
  try {
    browser = await launchBrowser();
    // The certificate is the test's own: the browser is told to accept it, nothing else changes.
    const agentContext = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 1280, height: 800 } });
    agent = await agentContext.newPage();
    agent.setDefaultTimeout(20_000);
    track(agent);
    await agent.goto(`${base}/`);
    await agent.locator('input[type="email"][name="email"]').fill(ADMIN.email);
    await agent.locator('input[type="password"][name="password"]').fill(ADMIN.password);
    await agent.getByRole('button', { name: 'Sign in' }).click();
    await agent.locator('.conn-live').waitFor();
    await agent.getByRole('combobox', { name: 'My status' }).selectOption('online');

    const login = await signIn(base, '127.0.0.1', ADMIN.password);
    expect(login.status).toBe(200);
    const token = (JSON.parse(login.body) as { token: string }).token;
    const made = await request(`${base}/api/v1/channels`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ type: 'widget', name: 'Shop behind the proxy' }),
    });
    expect(made.status).toBe(201);
    const channel = JSON.parse(made.body) as { id: number; install_snippet: string; script_url: string };
    expect(channel.script_url.startsWith(`${base}/`)).toBe(true);

    // The customer's site: another origin (http://localhost:<port>), the install snippet in it.
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Acme shop</title></head>
<body><h1>Acme shop</h1>${channel.install_snippet}</body></html>`;
    site.on('request', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(html);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const siteUrl = `http://localhost:${(site.address() as AddressInfo).port}/shop`;
    const visitorContext = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 1280, height: 800 } });
    visitor = await visitorContext.newPage();
    visitor.setDefaultTimeout(20_000);
    track(visitor);
    await visitor.goto(siteUrl);
    await visitor.locator('#svc_chat_widget').getByRole('button', { name: 'Chat with us' }).click();
    const frame = visitor.frameLocator('iframe[title="Chat"]');
    await frame.getByLabel('Message').fill(`Hello through ${name}`);
    await frame.getByRole('button', { name: 'Send' }).click();

    await agent
      .getByRole('button', { name: /^Reply to/ })
      .first()
      .click();
    await agent.waitForURL(/\/chats\/\d+$/);
    const chatId = Number(/\/chats\/(\d+)$/.exec(agent.url())?.[1]);
    await agent.getByRole('log', { name: 'Messages' }).getByText(`Hello through ${name}`).waitFor();
    const composer = agent.getByRole('textbox', { name: 'Message to the visitor' });
    await composer.fill(`Hi, this is the agent behind ${name}`);
    await composer.press('Enter');
    await frame.getByRole('log').getByText(`Hi, this is the agent behind ${name}`, { exact: true }).waitFor();
    await screenshot(agent, `deploy-${name}-agent`);
    await screenshot(visitor, `deploy-${name}-visitor`);

    const wssBase = base.replace(/^https:/, 'wss:');
    expect(sockets.some((u) => u.startsWith(`${wssBase}/api/v1/stream`))).toBe(true);
    expect(sockets.some((u) => u.startsWith(`${wssBase}/widget/ws/`))).toBe(true);
    expect(sockets.filter((u) => !u.startsWith(`${wssBase}/`))).toEqual([]);
    return { token, chatId };
  } finally {
    await browser?.close();
    site.closeAllConnections();
    await new Promise<void>((resolve) => site.close(() => resolve()));
  }
}

/**
 * The largest file Parley takes goes through the proxy; one byte more is refused with 413 before
 * it is sent, to a client that announces it (Expect: 100-continue, as curl does for any body over
 * 1 MB). A client that sends it anyway gets the same 413 from nginx; Caddy (Go's server) closes
 * the connection after its 413 while the body still streams, so that client may see a reset.
 */
export async function checkBodyLimits(base: string, journey: Journey): Promise<void> {
  const upload = (bytes: number, expectContinue = false) =>
    request(`${base}/api/v1/chats/${journey.chatId}/uploads`, {
      method: 'POST',
      headers: { authorization: `Bearer ${journey.token}`, 'content-type': 'text/plain', 'x-file-name': 'notes.txt' },
      body: Buffer.alloc(bytes, 'a'),
      expectContinue,
    });
  const largest = await upload(WIDGET_UPLOAD_MAX_BYTES);
  expect(largest.status, largest.body.slice(0, 300)).toBe(200);
  expect((JSON.parse(largest.body) as { file_size: number }).file_size).toBe(WIDGET_UPLOAD_MAX_BYTES);
  for (let i = 0; i < 5; i++) {
    expect((await upload(WIDGET_UPLOAD_MAX_BYTES + 1, true)).status).toBe(413);
  }
}

/** Ports the test's processes listen on. */
export async function ports(n: number): Promise<number[]> {
  const out: number[] = [];
  while (out.length < n) {
    const p = await freePort();
    if (!out.includes(p)) out.push(p);
  }
  return out;
}
