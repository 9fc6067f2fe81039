/**
 * The Reports page in a real browser against the real app, with four weeks of
 * chats made through the real API on a moving clock (visitors on two widgets,
 * three agents answering, missed chats, ratings, offline messages, status
 * changes), so the previous period has figures to compare with. It checks
 * that the page loads as its own chunk, that its figures are the API's (totals,
 * chart legend on hover, table view, CSV), the presets and buckets, the
 * agent filter's note about offline messages, the empty and error states,
 * and what an agent (not admin) sees. Screenshots: test-artifacts/reports-*.png.
 */
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addAgent } from '../../test/helpers/accounts.js';
import { waitFor } from '../../test/helpers/chatChannel.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer, createTestApp, type TestApp } from '../../test/helpers/testApp.js';
import { agentReply, createWidget, sendText, setStatus, startSession, visitorCall, type TestWidget } from '../../test/helpers/widget.js';
import { chromiumAvailable, launchBrowser, screenshot } from '../helpers/browser.js';
import { collectBrowserLog, ensureAgentAppBuilt, reportFailure, signIn } from './harness.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const MIN = 60_000;
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** A small deterministic random source, so every run seeds the same data. */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 48_271) % 2_147_483_647;
    return s / 2_147_483_647;
  };
}

describe.skipIf(!chromiumAvailable())('agent app: reports', () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let page: Page;
  const browserLog: string[] = [];
  const requests: string[] = [];
  let now = 0;
  let live = false;
  let website: TestWidget;
  let help: TestWidget;
  const today = iso(Date.now());
  const week = { from: iso(Date.now() - 6 * DAY), to: today };
  const report = async (name: string, query: string, token?: string) => {
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/reports/${name}?${query}`, headers: bearer(token ?? t.adminToken) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  beforeAll(async () => {
    await ensureAgentAppBuilt();
    const first = Math.floor(Date.now() / DAY) * DAY - 27 * DAY;
    now = first;
    t = await createTestApp({ clock: () => (live ? Date.now() : now), env: { TOKEN_TTL_SECONDS: String(365 * 24 * 3600) } });
    const bea = await addAgent(t, { email: 'bea@example.com', name: 'Bea Lopez', password: 'bea-password-1' });
    const carl = await addAgent(t, { email: 'carl@example.com', name: 'Carl Singh' });
    website = await createWidget(t, { name: 'Website' });
    help = await createWidget(t, { name: 'Help center' });
    const dept = await t.app.inject({ method: 'POST', url: '/api/v1/departments', headers: bearer(t.adminToken), payload: { name: 'Sales' } });
    expect(dept.statusCode).toBe(201);

    // Every step of every chat, sorted by time and run on the clock.
    const steps: Array<{ at: number; run: () => Promise<void> }> = [];
    const rnd = random(22);
    const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)];
    const lastHour = Math.floor((Date.now() - first - 27 * DAY) / HOUR) - 1;
    for (let d = 0; d < 28; d++) {
      const day = first + d * DAY;
      const weekday = new Date(day).getUTCDay();
      const weekend = weekday === 0 || weekday === 6;
      const recent = d >= 21;
      const n = weekend ? 1 + Math.floor(rnd() * 2) : (recent ? 4 : 2) + Math.floor(rnd() * 4);
      // Chats may overlap: each one's steps keep their order when all are sorted by time.
      const hours = Array.from({ length: n }, () => pick([8, 9, 10, 10, 11, 11, 13, 14, 14, 15, 16, 17, 19])).filter((h) => d < 27 || h < lastHour);
      for (const h of hours) {
        const start = day + h * HOUR + Math.floor(rnd() * 50) * MIN;
        const widget: TestWidget = rnd() < 0.7 ? website : help;
        const missed = rnd() < (recent ? 0.1 : 0.2);
        const who = pick([bea, bea, carl, null]);
        const replyAfter = Math.round((recent ? 8 : 20) * 1000 + rnd() * rnd() * (recent ? 150 : 400) * 1000);
        const rating = rnd() < 0.5 ? (rnd() < (recent ? 0.85 : 0.65) ? 'positive' : 'negative') : null;
        // Finished after the reply and the rating: the draw alone could put the finish first (a reply after 6.9 min, a finish after 4).
        const drawn = (missed ? 5 : 4 + Math.floor(rnd() * 30)) * MIN;
        const finishAfter = missed ? drawn : Math.max(drawn, replyAfter + 3 * MIN);
        const chat = { id: 0, visitor: '' };
        steps.push({
          at: start,
          run: async () => {
            const session = await startSession(t, widget.widget_id);
            chat.visitor = session.visitor_token;
            chat.id = (await sendText(t, widget.widget_id, session.visitor_token, 'Hello, I have a question')).chat_id;
          },
        });
        if (!missed) {
          steps.push({ at: start + replyAfter, run: async () => void (await agentReply(t, chat.id, 'Hi! How can I help?', who?.token)) });
          if (rating)
            steps.push({
              at: start + replyAfter + 2 * MIN,
              run: async () => expect((await visitorCall(t, widget.widget_id, chat.visitor, 'rate', { rate: rating })).statusCode).toBe(204),
            });
        }
        steps.push({
          at: start + finishAfter,
          run: async () => {
            const res = await t.app.inject({ method: 'POST', url: `/api/v1/chats/${chat.id}/finish`, headers: bearer(t.adminToken), payload: {} });
            expect(res.statusCode, res.body).toBe(200);
          },
        });
      }
      if (!weekend && d < 27) {
        for (const [at, status] of [
          [8, 'online'],
          [12, 'away'],
          [13, 'online'],
          [17, 'offline'],
        ] as const)
          steps.push({ at: day + at * HOUR - 30_000, run: () => setStatus(t, status, bea.token) });
        if (recent || rnd() < 0.3)
          steps.push({
            at: day + 21 * HOUR + Math.floor(rnd() * 50) * MIN,
            run: async () => {
              const v = await startSession(t, help.widget_id);
              const res = await visitorCall(t, help.widget_id, v.visitor_token, 'offline', { message: 'Please call me back', email: 'late@example.com' });
              expect(res.statusCode, res.body).toBe(200);
            },
          });
      }
    }
    steps.sort((a, b) => a.at - b.at);
    for (const step of steps) {
      now = step.at;
      await step.run();
    }
    live = true;
    const db = t.app.ctx.db;
    await waitFor(async () => {
      const last = await db
        .selectFrom('events')
        .select((eb) => eb.fn.max('id').as('id'))
        .executeTakeFirst();
      const cursor = await db.selectFrom('relay_cursor').select('relayed_through').executeTakeFirst();
      return Number(cursor?.relayed_through ?? 0) >= Number(last?.id ?? 0);
    }, 30_000);

    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    collectBrowserLog(page, browserLog);
    page.on('request', (r) => requests.push(r.url()));
    await signIn(page, base, ADMIN_EMAIL, ADMIN_PASSWORD);
  }, 180_000);

  afterEach(({ task }) => reportFailure(task, page, browserLog));

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  const section = (name: string) => page.getByRole('region', { name, exact: true });
  const kpi = (label: string) => page.locator('.kpi', { has: page.locator('.kpi-label', { hasText: new RegExp(`^${label}$`) }) }).locator('.kpi-value');

  it('loads as its own chunk and shows the last 7 days with the totals of the API', async () => {
    expect(requests.filter((u) => /ReportsPage-[\w-]+\.js$/.test(u))).toEqual([]);
    await page.getByRole('link', { name: 'Reports' }).click();
    await page.getByRole('heading', { name: 'Reports', level: 1 }).waitFor();
    await section('Chats').locator('canvas').first().waitFor();
    expect(requests.filter((u) => /ReportsPage-[\w-]+\.js$/.test(u))).toHaveLength(1);

    const chats = await report('chats', `from=${week.from}&to=${week.to}`);
    const times = await report('response-times', `from=${week.from}&to=${week.to}`);
    expect(chats.totals.started).toBeGreaterThan(5);
    expect(chats.previous.started).toBeGreaterThan(0);
    await expect.poll(() => kpi('Chats started').textContent()).toBe(String(chats.totals.started));
    expect(await kpi('Missed').textContent()).toBe(String(chats.totals.missed));
    expect(await kpi('Offline messages').textContent()).toBe(String(chats.totals.offline_messages));
    expect(await page.getByRole('status').filter({ hasText: week.from }).textContent()).toContain(`${week.from} – ${week.to}, by day; UTC time`);
    expect(times.totals.first_response.median_s).toBeGreaterThan(0);
    // Every report drew or listed its figures.
    for (const name of ['Chats', 'Response times', 'Ratings']) expect(await section(name).locator('canvas').count()).toBeGreaterThan(0);
    expect(await section('Busiest hours').locator('td.heat').count()).toBe(7 * 24);
    expect(await section('Busiest hours').locator('td.heat-5').count()).toBeGreaterThan(0);
    expect(await section('Agents').getByRole('row').count()).toBe(1 + 3);
    expect(browserLog.filter((l) => /Content Security Policy|pageerror/.test(l))).toEqual([]);
    await screenshot(page, 'reports-overview');
  });

  it('shows the numbers of a bucket on hover, as a table, and as CSV', async () => {
    const chats = await report('chats', `from=${week.from}&to=${week.to}`);
    const over = section('Chats').locator('.u-over');
    const box = await over.boundingBox();
    if (!box) throw new Error('no chart');
    // The last bucket (today) is at the right edge of the plot.
    await page.mouse.move(box.x + box.width * (6.5 / 7), box.y + box.height / 2);
    const legend = section('Chats').locator('.u-legend .u-series');
    const last = chats.series[6];
    await expect.poll(() => legend.nth(1).locator('.u-value').textContent()).toBe(String(last.started));
    expect(await legend.nth(3).locator('.u-value').textContent()).toBe(String(last.missed));
    await screenshot(page, 'reports-hover');

    await section('Chats').getByRole('button', { name: 'Show table' }).click();
    const table = section('Chats').getByRole('table');
    expect(await table.locator('tbody tr').count()).toBe(7);
    const cells = await table.locator('tbody tr').nth(6).locator('td').allTextContents();
    expect(cells.map(Number)).toEqual([last.started, last.accepted, last.missed, last.offline_messages, last.callbacks]);
    expect(await table.locator('tfoot tr').first().locator('td').first().textContent()).toBe(String(chats.totals.started));

    const [download] = await Promise.all([page.waitForEvent('download'), section('Chats').getByRole('button', { name: 'Download CSV: Chats' }).click()]);
    expect(download.suggestedFilename()).toBe(`parley-chats-${week.from}-to-${week.to}.csv`);
    const csv = fs
      .readFileSync(await download.path(), 'utf8')
      .trim()
      .split('\r\n');
    expect(csv[0]).toBe('bucket,bucket_start_utc,started,accepted,missed,offline_messages,callbacks');
    expect(csv).toHaveLength(8);
    expect(csv[7]).toBe(`${last.label},${last.start},${last.started},${last.accepted},${last.missed},${last.offline_messages},${last.callbacks}`);
    await screenshot(page, 'reports-table');
    await section('Chats').getByRole('button', { name: 'Show chart' }).click();
  });

  it('lists the chats of each channel, with its CSV', async () => {
    const chats = await report('chats', `from=${week.from}&to=${week.to}`);
    const channels = section('Chats by channel');
    await channels.getByRole('row', { name: /Website/ }).waitFor();
    for (const [widget, name] of [
      [website, 'Website'],
      [help, 'Help center'],
    ] as const) {
      const c = chats.by_channel.find((x: { channel_id: number }) => x.channel_id === widget.id);
      const cells = await channels
        .getByRole('row', { name: new RegExp(name) })
        .locator('td')
        .allTextContents();
      expect(cells.slice(0, 5).map(Number)).toEqual([c.started, c.accepted, c.missed, c.offline_messages, c.callbacks]);
      expect(cells[5]).toBe(`${Math.round((c.started / chats.totals.started) * 100)} %`);
    }
    const [download] = await Promise.all([page.waitForEvent('download'), channels.getByRole('button', { name: 'Download CSV: Chats by channel' }).click()]);
    expect(download.suggestedFilename()).toBe(`parley-channels-${week.from}-to-${week.to}.csv`);
    const csv = fs
      .readFileSync(await download.path(), 'utf8')
      .trim()
      .split('\r\n');
    expect(csv[0]).toBe('channel_id,channel,started,accepted,missed,offline_messages,callbacks');
    const w = chats.by_channel.find((x: { channel_id: number }) => x.channel_id === website.id);
    expect(csv).toContain(`${website.id},Website,${w.started},${w.accepted},${w.missed},${w.offline_messages},${w.callbacks}`);
  });

  it('switches presets and buckets', async () => {
    await page.getByRole('button', { name: 'Last 30 days' }).click();
    const from30 = iso(Date.now() - 29 * DAY);
    await page
      .getByRole('status')
      .filter({ hasText: `${from30} – ${today}, by day` })
      .waitFor();
    const month = await report('chats', `from=${from30}&to=${today}`);
    await expect.poll(() => kpi('Chats started').textContent()).toBe(String(month.totals.started));
    await screenshot(page, 'reports-30-days');

    await page.getByRole('button', { name: 'Yesterday' }).click();
    const yesterday = iso(Date.now() - DAY);
    await page
      .getByRole('status')
      .filter({ hasText: `${yesterday} – ${yesterday}, by hour` })
      .waitFor();
    await section('Chats').getByRole('button', { name: 'Show table' }).click();
    expect(await section('Chats').locator('tbody tr').count()).toBe(24);
    await section('Chats').getByRole('button', { name: 'Show chart' }).click();
    await screenshot(page, 'reports-yesterday-hourly');

    await page.getByRole('button', { name: 'Last 12 months' }).click();
    expect(await page.getByRole('combobox', { name: 'Buckets' }).locator('option[value="hour"]').isDisabled()).toBe(true);
    await page.getByRole('status').filter({ hasText: 'by day' }).waitFor();
    await page.getByRole('button', { name: 'Last 7 days' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `${week.from} – ${week.to}` })
      .waitFor();
  });

  it('says that offline messages are not split by agent under the agent filter', async () => {
    await page.getByRole('combobox', { name: 'Agent' }).selectOption({ label: 'Bea Lopez' });
    await expect.poll(() => kpi('Offline messages').textContent()).toBe('n/a');
    expect(await kpi('Missed').textContent()).toBe('n/a');
    await section('Chats')
      .getByText('Missed chats are counted for the team, not per agent, and offline messages and callback requests have no agent')
      .waitFor();
    const bea = await report(
      'chats',
      `from=${week.from}&to=${week.to}&agent_id=${(await t.app.inject({ method: 'GET', url: '/api/v1/agents', headers: bearer(t.adminToken) })).json().find((a: { name: string }) => a.name === 'Bea Lopez').id}`,
    );
    await expect.poll(() => kpi('Chats started').textContent()).toBe(String(bea.totals.started));
    expect(await section('Agents').getByRole('row').count()).toBe(2);
    await screenshot(page, 'reports-agent-filter');
    await page.getByRole('combobox', { name: 'Agent' }).selectOption('');
  });

  it('says what to do when a period is empty, invalid, or the server cannot be reached', async () => {
    await page.getByRole('button', { name: 'Custom…' }).click();
    await page.getByLabel('From', { exact: true }).fill('2021-01-01');
    await page.getByLabel('To', { exact: true }).fill('2021-01-31');
    await section('Chats').getByText('No chats started in this period. Pick a longer period.').waitFor();
    await section('Ratings').getByText('No visitor rated a chat in this period.').waitFor();
    await screenshot(page, 'reports-empty');

    await page.getByRole('combobox', { name: 'Buckets' }).selectOption('hour');
    await page.getByRole('status').filter({ hasText: '2021-01-01 – 2021-01-31, by hour' }).waitFor();
    await page.getByLabel('To', { exact: true }).fill('2021-03-31');
    await page.getByRole('alert').filter({ hasText: 'Hourly buckets cover at most 31 days; pick days or a shorter range.' }).waitFor();
    await page.getByRole('combobox', { name: 'Buckets' }).selectOption('auto');

    await page.route('**/api/v1/reports/**', (route) => route.abort());
    await page.getByLabel('From', { exact: true }).fill(week.from);
    await page.getByLabel('To', { exact: true }).fill(week.to);
    const failure = page.getByRole('alert').filter({ hasText: 'No report could be loaded' });
    await failure.getByText('The server cannot be reached; check the connection and try again.').waitFor();
    expect(await page.getByRole('region', { name: 'Chats', exact: true }).count()).toBe(0);
    await screenshot(page, 'reports-error');
    await page.unroute('**/api/v1/reports/**');
    await failure.getByRole('button', { name: 'Try again' }).click();
    await section('Chats').locator('canvas').first().waitFor();

    // One report failing: only its section says so, and offers to try again.
    await page.route('**/api/v1/reports/ratings**', (route) => route.abort());
    await page.getByRole('button', { name: 'Last 30 days' }).click();
    const ratings = section('Ratings').getByRole('alert');
    await ratings.getByText('The server cannot be reached; check the connection and try again.').waitFor();
    expect(await section('Chats').getByRole('alert').count()).toBe(0);
    await page.unroute('**/api/v1/reports/ratings**');
    await ratings.getByRole('button', { name: 'Try again' }).click();
    await section('Ratings').locator('canvas').first().waitFor();
  });

  it('shows an agent only its own figures', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const own = await context.newPage();
    try {
      await signIn(own, base, 'bea@example.com', 'bea-password-1');
      await own.getByRole('link', { name: 'Reports' }).click();
      await own.getByText('Your own figures').waitFor();
      expect(await own.getByRole('combobox', { name: 'Agent' }).count()).toBe(0);
      const agents = own.getByRole('region', { name: 'Agents', exact: true });
      await agents.getByRole('row', { name: /Bea Lopez/ }).waitFor();
      expect(await agents.getByRole('row').count()).toBe(2);
      await screenshot(own, 'reports-agent-view');
    } finally {
      await context.close();
    }
  });
});
