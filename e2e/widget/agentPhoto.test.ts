/**
 * Agent photos in real Chromium (#17 item 5): the admin uploads a photo on the
 * agent app's Profile page (the save says so beside it, the header shows it),
 * then a visitor's chat is accepted: the widget's header shows that photo,
 * loaded from Parley, and svc_onAccept receives it. Removing the photo brings
 * back the initial on the Profile page.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../../test/helpers/testApp.js';
import { ensureAgentAppBuilt, signIn } from '../agent/harness.js';
import { chromiumAvailable, screenshot } from '../helpers/browser.js';
import { WidgetEnv, type Call } from './harness.js';

/** A 16×16 PNG (orange square). */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAAAFklEQVR4nGP436BAEmIY1TCqYfhqAAB/VJ8Q/YV/fgAAAABJRU5ErkJggg==', 'base64');

const loaded = (page: Page, selector: string) =>
  page.locator(selector).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0 && img.currentSrc);

describe.skipIf(!chromiumAvailable())('agent photo: Profile page → widget and svc_onAccept (browser)', () => {
  let env: WidgetEnv;

  beforeAll(async () => {
    await ensureAgentAppBuilt();
    env = await WidgetEnv.start();
    await env.setAgentStatus('online');
  });
  afterAll(async () => {
    await env?.close();
  });

  it('uploads a photo on the Profile page, and the visitor sees it when the chat is accepted', async () => {
    const agentCtx = await env.context();
    const visitorCtx = await env.context();
    try {
      const app = await agentCtx.newPage();
      await signIn(app, env.base, ADMIN_EMAIL, ADMIN_PASSWORD);
      await app.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Profile' }).click();
      await app.getByRole('heading', { name: 'Your profile' }).waitFor();
      await app.getByText('No photo yet: visitors see your initial.').waitFor();
      await screenshot(app, 'profile-empty');

      await app.getByLabel('Photo file').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: PNG });
      await app.getByText('Saved: visitors now see this photo.').waitFor();
      const me = (await env.api<{ photo_url: string }>('GET', '/api/v1/me')).body;
      expect(me.photo_url).toMatch(new RegExp(`^${env.base}/widget/uploads/[a-z0-9]{24}-photo\\.png$`));
      await expect.poll(() => loaded(app, 'img.profile-photo')).toBe(me.photo_url);
      await expect.poll(() => loaded(app, 'img.me-photo')).toBe(me.photo_url);
      await screenshot(app, 'profile-photo');

      // A file that is no image is refused before it is sent, in words.
      await app.getByLabel('Photo file').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
      await app.getByRole('alert').filter({ hasText: 'Choose a PNG, JPEG, GIF or WebP image.' }).waitFor();

      // The visitor writes; the agent accepts: the photo is in the widget's header and in svc_onAccept.
      const page = await env.open(visitorCtx);
      const frame = env.frame(page);
      await env.launcher(page, 'Chat with us').click();
      await frame.getByLabel('Message').fill('Hello, is anyone there?');
      await frame.getByRole('button', { name: 'Send' }).click();
      const chat = await env.chatOf(page, 'pending');
      expect((await env.api('POST', `/api/v1/chats/${chat.id}/accept`)).status).toBe(200);
      const calls = await env.until(page, (c: Call[]) => c.some((x) => x.name === 'svc_onAccept'));
      expect(calls.find((c) => c.name === 'svc_onAccept')?.args[0]).toEqual({ name: 'Administrator', photo: me.photo_url });
      const avatar = frame.locator('img.avatar');
      await expect.poll(() => avatar.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0 && img.currentSrc)).toBe(me.photo_url);
      await screenshot(page, 'widget-agent-photo');

      // Removing it: the initial again, and the link is gone.
      await app.getByRole('button', { name: 'Remove photo' }).click();
      await app.getByText('Photo removed: visitors see your initial instead.').waitFor();
      expect((await env.api<{ photo_url: string | null }>('GET', '/api/v1/me')).body.photo_url).toBeNull();
    } finally {
      await agentCtx.close();
      await visitorCtx.close();
    }
  });

  it("shows the agent's initial, never a broken image, when the photo link cannot be loaded", async () => {
    expect((await env.api('PATCH', '/api/v1/me', { photo_url: 'https://127.0.0.1:9/gone.png' })).status).toBe(200);
    const visitorCtx = await env.context();
    try {
      const page = await env.open(visitorCtx);
      const frame = env.frame(page);
      await env.launcher(page, 'Chat with us').click();
      await frame.getByLabel('Message').fill('Is the photo there?');
      await frame.getByRole('button', { name: 'Send' }).click();
      const chat = await env.chatOf(page, 'pending');
      expect((await env.api('POST', `/api/v1/chats/${chat.id}/accept`)).status).toBe(200);
      await env.until(page, (c: Call[]) => c.some((x) => x.name === 'svc_onAccept'));
      await frame.getByRole('heading', { name: 'Administrator' }).waitFor();
      await expect.poll(() => frame.locator('header span.avatar').textContent()).toBe('A');
      expect(await frame.locator('header img').count()).toBe(0);
      await screenshot(page, 'widget-agent-photo-broken-initial');
    } finally {
      await visitorCtx.close();
      await env.api('PATCH', '/api/v1/me', { photo_url: null });
    }
  });
});

describe('photoProblem (the Profile page checks a file before sending it)', () => {
  it('accepts PNG, JPEG, GIF and WebP up to 2 MB and says why anything else is refused', async () => {
    const { photoProblem } = await import('../../web/agent/src/photo.js');
    expect(photoProblem({ type: 'image/png', size: 2 * 1024 * 1024 })).toBeNull();
    expect(photoProblem({ type: 'image/webp', size: 10 })).toBeNull();
    expect(photoProblem({ type: 'image/svg+xml', size: 10 })).toBe('Choose a PNG, JPEG, GIF or WebP image.');
    expect(photoProblem({ type: 'image/jpeg', size: 3 * 1024 * 1024 })).toBe('That image is 3.0 MB; photos of up to 2 MB can be used.');
  });
});
