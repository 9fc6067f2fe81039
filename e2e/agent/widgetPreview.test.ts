/**
 * The widget appearance preview in a real browser speaks the language chosen for the widget: its
 * default title, status, composer and launcher texts (the widget's own translations), right to left
 * for Arabic, and the text fields' placeholders are those defaults too.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createWidget } from '../../test/helpers/widget.js';
import { chromiumAvailable, screenshot } from '../helpers/browser.js';
import { ensureAgentAppBuilt, openAsAdmin, reportFailure, startApp, type RunningApp } from './harness.js';

describe.skipIf(!chromiumAvailable())('agent app: widget appearance preview', () => {
  let run: RunningApp;
  let browser: Browser;
  let page: Page;
  const browserLog: string[] = [];

  beforeAll(async () => {
    await ensureAgentAppBuilt();
    run = await startApp();
    await createWidget(run.t, { name: 'Shop widget' });
    ({ browser, page } = await openAsAdmin(run, browserLog, 1400));
  });
  afterEach(({ task }) => reportFailure(task, page, browserLog));
  afterAll(async () => {
    await browser?.close();
    await run?.t.close();
  });

  it('shows the chosen language, not English', async () => {
    await page.goto(`${run.base}/admin/channels`);
    await page.locator('.channel', { hasText: 'Shop widget' }).getByRole('button', { name: 'Change' }).click();
    const edit = page.getByRole('form', { name: 'Change Shop widget' });
    const preview = edit.getByRole('img', { name: 'Preview of the widget' });
    // This browser speaks English: "auto" previews English.
    await preview.getByText('Support', { exact: true }).waitFor();
    await preview.getByText('Chat with us').waitFor();

    await edit.getByLabel('Language').selectOption('de');
    await preview.getByText('Kundenservice').waitFor();
    await preview.getByText('Chatten Sie mit uns').waitFor();
    await preview.getByText('Nachricht eingeben…').waitFor();
    expect(await preview.getByText('Support', { exact: true }).count()).toBe(0);
    expect(await edit.getByLabel('Window title').getAttribute('placeholder')).toBe('Kundenservice');
    expect(await edit.getByLabel('Launcher text').getAttribute('placeholder')).toBe('Chatten Sie mit uns');
    // No greeting set: the widget shows none, and neither does the preview.
    expect(await preview.getByText('Hi! How can we help?').count()).toBe(0);
    await edit.scrollIntoViewIfNeeded();
    await preview.screenshot({ path: 'test-artifacts/agent-widget-preview-de.png' });

    await edit.getByLabel('Language').selectOption('ar');
    await preview.getByText('الدعم').waitFor();
    expect(await preview.locator('[data-lang="ar"]').getAttribute('dir')).toBe('rtl');
    await preview.screenshot({ path: 'test-artifacts/agent-widget-preview-ar.png' });

    // A title of the admin's own wins in every language.
    await edit.getByLabel('Window title').fill('Acme Hilfe');
    await preview.getByText('Acme Hilfe').waitFor();
    await screenshot(page, 'agent-widget-preview-form');
  });
});
