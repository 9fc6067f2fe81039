/**
 * Shared setup of the agent-app browser tests: make sure the web build exists
 * (npm run build:web, once, even with both store projects starting at the
 * same time), run the real app on a free port, sign in through the form (as
 * the administrator in a browser of its own: openAsAdmin), and leave a failed
 * test's screenshot and browser log (reportFailure).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { ADMIN_EMAIL, ADMIN_PASSWORD, createTestApp, type TestApp } from '../../test/helpers/testApp.js';
import { launchBrowser, screenshot } from '../helpers/browser.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const INDEX = path.join(ROOT, 'dist/web/agent/index.html');
const LOCK = path.join(ROOT, 'dist/web/.agent-e2e-build.lock');

export async function ensureAgentAppBuilt(): Promise<void> {
  if (fs.existsSync(INDEX)) return;
  fs.mkdirSync(path.dirname(LOCK), { recursive: true });
  let mine = false;
  try {
    fs.mkdirSync(LOCK);
    mine = true;
  } catch {
    // another test process is building: wait for its result below
  }
  if (mine) {
    try {
      const result = spawnSync('npm', ['run', 'build:web'], { cwd: ROOT, stdio: 'inherit' });
      if (result.status !== 0) throw new Error('npm run build:web failed');
    } finally {
      fs.rmSync(LOCK, { recursive: true, force: true });
    }
  }
  const until = Date.now() + 120_000;
  while (!fs.existsSync(INDEX)) {
    if (Date.now() > until) throw new Error(`${INDEX} did not appear: run npm run build:web`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

export interface RunningApp {
  t: TestApp;
  base: string;
}

export async function startApp(env: Record<string, string> = {}): Promise<RunningApp> {
  const t = await createTestApp({ env });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as AddressInfo;
  return { t, base: `http://127.0.0.1:${port}` };
}

export async function signIn(page: Page, base: string, email: string, password: string): Promise<void> {
  await page.goto(`${base}/`);
  await page.locator('input[type="email"][name="email"]').fill(email);
  await page.locator('input[type="password"][name="password"]').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  // Signed in and the stream is live.
  await page.locator('.conn-live').waitFor({ timeout: 10_000 });
}

/** Console messages, failed requests and page errors, for a failing test's report and the CSP check. */
export function collectBrowserLog(page: Page, log: string[]): void {
  page.on('console', (m) => log.push(`console.${m.type()}: ${m.text()}`));
  page.on('pageerror', (err) => log.push(`pageerror: ${err.message}`));
  page.on('requestfailed', (r) => log.push(`requestfailed: ${r.method()} ${r.url()} ${r.failure()?.errorText ?? ''}`));
}

/** A browser with one page, 1280 px wide and `height` high, signed in as the test app's administrator, its log collected in `log`. */
export async function openAsAdmin(run: RunningApp, log: string[], height: number): Promise<{ browser: Browser; page: Page }> {
  const browser = await launchBrowser();
  const page = await browser.newPage({ viewport: { width: 1280, height } });
  // Shorter than the test's own 30 s, so a wait that never ends names its locator.
  page.setDefaultTimeout(20_000);
  collectBrowserLog(page, log);
  await signIn(page, run.base, ADMIN_EMAIL, ADMIN_PASSWORD);
  return { browser, page };
}

/** For afterEach: a failed test leaves a screenshot of the page and the browser's last 40 log lines. */
export async function reportFailure(task: { name: string; result?: { state?: string } }, page: Page | undefined, log: string[]): Promise<void> {
  if (task.result?.state !== 'fail' || !page) return;
  await screenshot(page, `failed-${task.name.replace(/\W+/g, '-').slice(0, 60)}`);
  console.error(`browser log before "${task.name}" failed:\n${log.slice(-40).join('\n')}`);
}
