/**
 * XSS in real Chromium: markup and javascript: links put into every string a
 * visitor or an agent controls — the visitor's name, contact info and custom
 * data (svc_api), messages, uploaded file names, a chat-channel sender's
 * name and files, an offline message, the agent's own name and files — are
 * shown as text, inert, in both the agent app and the widget frame: no element
 * is made from them, no handler runs (window.__xss stays undefined), no CSP
 * violation is even attempted, and no javascript: link exists.
 */
import type { BrowserContext, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postInbound, textMessage, waitFor } from '../../test/helpers/chatChannel.js';
import { createChatChannel } from '../../test/helpers/chatChannel.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../../test/helpers/testApp.js';
import { visitorCall } from '../../test/helpers/widget.js';
import { chromiumAvailable, screenshot } from '../helpers/browser.js';
import { collectBrowserLog, ensureAgentAppBuilt, signIn } from '../agent/harness.js';
import { WidgetEnv } from '../widget/harness.js';

/** A payload that would set window.__xss if it ever became markup; `label` finds it on the page. */
const P = (label: string): string =>
  `<img src=x onerror="window.__xss='${label}'"><script>window.__xss='${label}'</script>"><svg onload=window.__xss=1>${label}`;
/** For file names: no slash. */
const F = (label: string, ext: string): string => `<img src=x onerror="window.__xss='${label}'">${label}.${ext}`;
const JS_LINK = "javascript:window.__xss='link'";

type Win = { __xss?: unknown; __violations?: string[] };

/** Records CSP violations in every frame, before any script of the page runs. */
async function watchViolations(ctx: BrowserContext): Promise<void> {
  await ctx.addInitScript(() => {
    const w = window as unknown as Win;
    w.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) => w.__violations?.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
}

/** Nothing of the payloads became markup or ran, in this page or frame. */
async function expectInert(target: Page | Frame, where: string, o: { ownInlineScripts?: boolean } = {}): Promise<void> {
  // The customer's host page has inline scripts of its own (the harness's callbacks).
  const selector = `img[src="x"], svg[onload], [onerror], [onload]${o.ownInlineScripts ? '' : ', script:not([src])'}`;
  const state = await target.evaluate((selector) => {
    const w = window as unknown as Win;
    return {
      xss: w.__xss,
      violations: w.__violations ?? [],
      injected: document.querySelectorAll(selector).length,
      jsLinks: [...document.querySelectorAll('a[href], iframe[src], img[src]')].filter((e) =>
        /^\s*javascript:/i.test(e.getAttribute('href') ?? e.getAttribute('src') ?? ''),
      ).length,
    };
  }, selector);
  expect(state, where).toEqual({ xss: undefined, violations: [], injected: 0, jsLinks: 0 });
}

/** The payload with this label is on the page, as text. */
async function expectText(target: Page | Frame, label: string, text = P(label)): Promise<void> {
  await waitFor(async () => (await target.getByText(text).count()) > 0, 10_000).catch(() => {
    throw new Error(`"${label}" is not shown as text`);
  });
}

describe.skipIf(!chromiumAvailable())('XSS attempts are inert in the agent app and the widget frame', () => {
  let env: WidgetEnv;
  let visitorPage: Page;
  let agentPage: Page;
  const log: string[] = [];
  let widgetChatId: number;
  let channelChatId: number;

  beforeAll(async () => {
    await ensureAgentAppBuilt();
    env = await WidgetEnv.start();
    const me = await env.api<{ id: number }>('GET', '/api/v1/me');
    expect((await env.api('PATCH', `/api/v1/agents/${me.body.id}`, { name: P('agentname') })).status).toBe(200);
    await env.setAgentStatus('online');
  });
  afterAll(async () => {
    if (log.length) console.error(log.slice(-30).join('\n'));
    await env?.close();
  });

  it("in the widget frame: the visitor's own strings, the agent's name, replies and files", async () => {
    const ctx = await env.context();
    await watchViolations(ctx);
    visitorPage = await env.open(ctx);
    collectBrowserLog(visitorPage, log);
    const frame = env.frame(visitorPage);
    await visitorPage.evaluate(
      ([name, description, title, key, content, link]) => {
        const api = (window as unknown as { svc_api: Record<string, (arg: unknown) => unknown> }).svc_api;
        api.setContactInfo({ name, email: 'mallory@example.com', phone: '+15550100177', description });
        api.setCustomData([
          { title, key, content, link },
          { key: 'Profile', content: 'fine', link: 'https://crm.example.com/u/1' },
        ]);
        api.setClientAttributes({ [title]: content });
        api.sendPageTitle(title);
      },
      [P('contactname'), P('contactdescription'), P('cdtitle'), P('cdkey'), P('cdcontent'), JS_LINK],
    );
    await env.launcher(visitorPage, 'Chat with us').click();
    await frame.getByLabel('Message').fill(P('visitormessage'));
    await frame.getByRole('button', { name: 'Send' }).click();
    await frame.getByLabel('Attach a file').setInputFiles({ name: F('visitorfile', 'txt'), mimeType: 'text/plain', buffer: Buffer.from('notes') });
    await frame.getByRole('button', { name: 'Send' }).click();

    const chat = await env.chatOf(visitorPage);
    widgetChatId = chat.id;
    await waitFor(async () => (await env.api<{ messages: unknown[] }>('GET', `/api/v1/chats/${chat.id}`)).body.messages.length >= 2);
    expect((await env.api('POST', `/api/v1/chats/${chat.id}/accept`)).status).toBe(200);
    expect((await env.api('POST', `/api/v1/chats/${chat.id}/messages`, { type: 'text', text: P('agentreply') })).status).toBe(201);
    expect(
      (
        await env.api('POST', `/api/v1/chats/${chat.id}/messages`, {
          type: 'document',
          file: 'https://cdn.example.com/terms.pdf',
          file_name: F('agentfile', 'pdf'),
          file_size: 4096,
        })
      ).status,
    ).toBe(201);
    // A javascript: file is refused or dropped, never sent as a link.
    const jsFile = await env.api('POST', `/api/v1/chats/${chat.id}/messages`, { type: 'document', file: JS_LINK, file_name: 'click me' });
    expect([201, 400]).toContain(jsFile.status);

    const frameHandle = await waitFor(() => visitorPage.frames().find((f) => f.url().includes('/widget/frame/')));
    await expectText(frameHandle, 'visitormessage');
    await expectText(frameHandle, 'agentreply');
    await expectText(frameHandle, 'agentname');
    await expectText(frameHandle, 'agentfile', F('agentfile', 'pdf'));
    await expectText(frameHandle, 'visitorfile', F('visitorfile', 'txt'));
    const contact = await visitorPage.evaluate(() =>
      (window as unknown as { svc_api: { getContactInfo(): { client_name: string } } }).svc_api.getContactInfo(),
    );
    expect(contact.client_name).toBe(P('contactname'));
    await screenshot(visitorPage, 'security-xss-widget');
    await expectInert(frameHandle, 'widget frame');
    await expectInert(visitorPage, 'host page', { ownInlineScripts: true });
  });

  it('in the agent app: the widget chat, a chat-channel chat, the inbox and offline messages', async () => {
    const channel = await createChatChannel(env.t, { name: 'App' });
    const inbound = (body: unknown) => postInbound(env.t, channel, body).then((res) => expect(res.statusCode).toBe(200));
    await inbound(
      textMessage('mallory-app', P('channelmessage'), {
        name: P('channelname'),
        email: 'mallory@example.com',
        phone: '+15550100166',
        photo: JS_LINK,
        url: JS_LINK,
      }),
    );
    await inbound({ sender: { id: 'mallory-app' }, message: { type: 'document', file: 'https://cdn.example.com/a.pdf', file_name: F('channelfile', 'pdf') } });
    await inbound({ sender: { id: 'mallory-app' }, message: { type: 'photo', file: JS_LINK, thumb: JS_LINK } }).catch(() => undefined);
    const chats = await env.api<Array<{ id: number; channel_id: number }>>('GET', '/api/v1/chats');
    channelChatId = chats.body.find((c) => c.channel_id === channel.id)?.id ?? 0;
    const session = await env.api<unknown>('GET', '/api/v1/me');
    expect(session.status).toBe(200);
    const token = (
      await env.t.app.inject({ method: 'POST', url: `/widget/api/${env.channel.widget_id}/session`, payload: { page: { url: 'https://shop.example.com/' } } })
    ).json().visitor_token as string;
    const offline = await visitorCall(env.t, env.channel.widget_id, token, 'offline', {
      name: P('offlinename'),
      email: 'mallory@example.com',
      description: P('offlinedescription'),
      message: P('offlinemessage'),
    });
    expect(offline.statusCode).toBe(200);

    const ctx = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
    await watchViolations(ctx);
    agentPage = await ctx.newPage();
    collectBrowserLog(agentPage, log);
    await signIn(agentPage, env.base, ADMIN_EMAIL, ADMIN_PASSWORD);
    await expectText(agentPage, 'agentname');
    await expectText(agentPage, 'channelname');
    await expectInert(agentPage, 'inbox');

    await agentPage.goto(`${env.base}/chats/${widgetChatId}`);
    for (const label of ['visitormessage', 'agentreply', 'contactname', 'cdtitle', 'cdkey', 'cdcontent']) await expectText(agentPage, label);
    await expectText(agentPage, 'agentfile', F('agentfile', 'pdf'));
    await expectText(agentPage, 'visitorfile', F('visitorfile', 'txt'));
    await screenshot(agentPage, 'security-xss-agent-widget-chat');
    await expectInert(agentPage, 'widget chat');

    await agentPage.goto(`${env.base}/chats/${channelChatId}`);
    for (const label of ['channelmessage', 'channelname']) await expectText(agentPage, label);
    await expectText(agentPage, 'channelfile', F('channelfile', 'pdf'));
    await expectInert(agentPage, 'chat-channel chat');

    await agentPage.goto(`${env.base}/offline`);
    for (const label of ['offlinename', 'offlinemessage']) await expectText(agentPage, label);
    await expectInert(agentPage, 'offline messages');
  });
});
