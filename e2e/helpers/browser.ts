/**
 * Real Chromium for browser tests: Debian's /usr/bin/chromium driven by
 * playwright-core (no browser download). Screenshots go to test-artifacts/.
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const ARTIFACTS = path.resolve(import.meta.dirname, '../../test-artifacts');

export function chromiumAvailable(): boolean {
  return fs.existsSync(CHROMIUM);
}

const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

export async function launchBrowser(): Promise<Browser> {
  requireChromium();
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
}

/**
 * A browser with a profile on disk (`userDataDir`), not an incognito one: what
 * an installable app needs (Chromium reports `in-incognito` otherwise).
 */
export async function launchPersistentBrowser(userDataDir: string, options: { viewport: { width: number; height: number } }): Promise<BrowserContext> {
  requireChromium();
  return chromium.launchPersistentContext(userDataDir, { executablePath: CHROMIUM, headless: true, args: ARGS, viewport: options.viewport });
}

function requireChromium(): void {
  if (!chromiumAvailable()) {
    throw new Error(`Chromium not found at ${CHROMIUM}: install Debian's chromium package (apt-get install -y chromium); .ci/run does.`);
  }
}

export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}
