/**
 * Admin → Files in a real browser (#31 item 3): its empty state, the usage
 * once a visitor sent files, and "Free files" asking once more, saying what it
 * freed and the usage going back to nothing; the chat's message then names
 * its file as removed instead of linking it.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../test/helpers/testApp.js';
import { createWidget, freshIp, sendText, startSession } from '../../test/helpers/widget.js';
import { chromiumAvailable, screenshot } from '../helpers/browser.js';
import { ensureAgentAppBuilt, openAsAdmin, reportFailure, startApp, type RunningApp } from './harness.js';

describe.skipIf(!chromiumAvailable())('agent app: uploaded files', () => {
  let run: RunningApp;
  let browser: Browser;
  const browserLog: string[] = [];
  let page: Page;

  beforeAll(async () => {
    await ensureAgentAppBuilt();
    run = await startApp();
    ({ browser, page } = await openAsAdmin(run, browserLog, 800));
  });

  afterEach(({ task }) => reportFailure(task, page, browserLog));

  afterAll(async () => {
    await browser?.close();
    await run?.t.close();
  });

  it('shows an empty state, then the usage; Free files says what it freed and the message shows the file removed', async () => {
    await page.getByRole('link', { name: 'Admin' }).click();
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Files' }).click();
    await page.getByRole('heading', { name: 'Files' }).waitFor();
    await page.getByText('No files are stored yet').waitFor();
    await screenshot(page, 'files-empty');

    const widget = await createWidget(run.t);
    const session = await startSession(run.t, widget.widget_id);
    const upload = await run.t.app.inject({
      method: 'POST',
      url: `/widget/api/${widget.widget_id}/uploads`,
      headers: { ...bearer(session.visitor_token), 'content-type': 'text/plain', 'x-file-name': 'invoice.txt', 'x-forwarded-for': freshIp() },
      payload: Buffer.alloc(3000, 0x61),
    });
    expect(upload.statusCode).toBe(200);
    const { chat_id } = await sendText(run.t, widget.widget_id, session.visitor_token, '', { text: undefined, ...upload.json() });

    await page.getByRole('button', { name: 'Refresh' }).click();
    const number = session.visitor.number;
    const row = page.getByRole('row', { name: new RegExp(`visitor #${number}`) });
    await row.waitFor();
    expect(await row.textContent()).toMatch(/2\.9 KB/);
    await screenshot(page, 'files-listed');

    await row.getByRole('button', { name: 'Free files' }).click();
    await row.getByRole('button', { name: 'Yes' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Freed 2.9 KB (1 file) of visitor #${number}.` })
      .waitFor();
    await page.getByText('No files are stored yet').waitFor();
    await screenshot(page, 'files-freed');

    await page.goto(`${run.base}/chats/${chat_id}`);
    await page.getByText('invoice.txt (2.9 KB): removed by an administrator to free space').waitFor();
  });
});
