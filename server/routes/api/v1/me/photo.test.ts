/**
 * Agents' photos (#17 item 5): POST /api/v1/me/photo stores an image like a
 * visitor's upload (DATA_DIR, served under /widget/uploads/, counted in the
 * upload quota, kept while it is the agent's photo and swept once replaced),
 * and the photo goes out as sender.photo to chat channels and agent.photo in
 * event webhooks.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../../../../test/helpers/chatChannel.js';
import { bearer, createTestApp, type TestApp } from '../../../../../test/helpers/testApp.js';
import { chatToCustomer, withOutgoing } from '../../../../../test/helpers/outgoing.js';
import { sweepUploads } from '../../../../retention/uploadSweeper.js';

/** A 2×2 PNG, a 1×1 GIF, and a JPEG's first bytes. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==', 'base64');
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(100, 1)]);

const upload = (t: TestApp, data: Buffer, type: string | undefined, token = t.adminToken) =>
  t.app.inject({ method: 'POST', url: '/api/v1/me/photo', headers: { ...bearer(token), ...(type ? { 'content-type': type } : {}) }, payload: data });
const nameOf = (url: string): string => url.split('/').pop()!;
const onDisk = (t: TestApp): string[] => {
  const dir = path.join(t.config.dataDir, 'uploads');
  return fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
};

describe('POST /api/v1/me/photo', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('stores the image, sets photo_url to its served URL, and serves it as an image', async () => {
    t = await createTestApp({ workers: false });
    const res = await upload(t, PNG, 'image/png');
    expect(res.statusCode).toBe(200);
    const agent = res.json<{ id: number; photo_url: string; email: string }>();
    expect(agent.email).toBe('admin@example.com');
    expect(agent.photo_url).toMatch(/^http:\/\/parley\.test\/widget\/uploads\/[a-z0-9]{24}-photo\.png$/);
    const served = await t.app.inject({ method: 'GET', url: `/widget/uploads/${nameOf(agent.photo_url)}` });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.rawPayload.equals(PNG)).toBe(true);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(t.adminToken) })).json()).toMatchObject({ photo_url: agent.photo_url });
    const rows = await t.app.ctx.db.selectFrom('uploads').select(['size', 'agent_id', 'message_id']).execute();
    expect(rows).toEqual([{ size: PNG.length, agent_id: agent.id, message_id: null }]);
  });

  it.each([
    ['a type that is not an image', Buffer.from('hello'), 'text/plain', 415],
    ['an SVG (a browser would run its scripts)', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'image/svg+xml', 415],
    ['a BMP', Buffer.from('BM0000'), 'image/bmp', 415],
    ['no Content-Type', PNG, undefined, 415],
    ['bytes that are not what the type says', Buffer.from('not really a png at all'), 'image/png', 415],
    ['an empty body', Buffer.alloc(0), 'image/png', 400],
    ['more than 2 MB', Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)]), 'image/png', 413],
  ])('refuses %s, storing nothing and leaving the photo as it was', async (_what, data, type, status) => {
    t = await createTestApp({ workers: false });
    const res = await upload(t, data, type);
    expect(res.statusCode).toBe(status);
    expect(res.json<{ error: { message: string } }>().error.message.length).toBeGreaterThan(10);
    expect(onDisk(t)).toEqual([]);
    expect(await t.app.ctx.db.selectFrom('uploads').select('id').execute()).toEqual([]);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(t.adminToken) })).json()).toMatchObject({ photo_url: null });
  });

  it('is counted in the upload quota: a photo past UPLOAD_QUOTA_MB is refused with 413', async () => {
    t = await createTestApp({ workers: false, env: { UPLOAD_QUOTA_MB: '1' } });
    await t.app.ctx.db
      .insertInto('uploads')
      .values({ name: 'x'.repeat(24) + '-full.txt', account_id: t.app.ctx.defaultAccountId, size: 1024 * 1024 - 50, created_at: Date.now() })
      .execute();
    const res = await upload(t, PNG, 'image/png');
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ error: { code: 'upload_quota_exceeded' } });
    expect(onDisk(t)).toEqual([]);
  });

  it('keeps the photo while it is the agent’s; a replaced one (by an upload or a link) is swept after its hour', async () => {
    let now = Date.UTC(2026, 0, 1, 9);
    t = await createTestApp({ workers: false, clock: () => now });
    const agent = await t.app.inject({
      method: 'POST',
      url: '/api/v1/agents',
      headers: bearer(t.adminToken),
      payload: { name: 'Bea', email: 'bea@example.com', password: 'bea-password-1', role: 'agent' },
    });
    expect(agent.statusCode).toBe(201);
    const bea = await t.login('bea@example.com', 'bea-password-1');
    const first = nameOf((await upload(t, PNG, 'image/png', bea)).json<{ photo_url: string }>().photo_url);
    const admins = nameOf((await upload(t, JPEG, 'image/jpeg')).json<{ photo_url: string }>().photo_url);
    now += 2 * 60 * 60_000;
    expect(await sweepUploads(t.app.ctx)).toBe(0);

    // The profile form sends the photo_url back unchanged with a new name: the photo stays.
    const me = (await t.app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(bea) })).json<{ photo_url: string }>();
    const patched = await t.app.inject({ method: 'PATCH', url: '/api/v1/me', headers: bearer(bea), payload: { name: 'Bea L.', photo_url: me.photo_url } });
    expect(patched.statusCode).toBe(200);
    expect(await sweepUploads(t.app.ctx)).toBe(0);

    const second = nameOf((await upload(t, GIF, 'image/gif', bea)).json<{ photo_url: string }>().photo_url);
    expect(second).toMatch(/-photo\.gif$/);
    expect(await sweepUploads(t.app.ctx)).toBe(1); // the first: replaced, and made more than an hour ago
    expect(onDisk(t)).toEqual([admins, second].sort());

    now += 2 * 60 * 60_000;
    await t.app.inject({ method: 'PATCH', url: '/api/v1/me', headers: bearer(bea), payload: { photo_url: 'https://cdn.example.com/bea.png' } });
    expect(await sweepUploads(t.app.ctx)).toBe(1);
    expect(onDisk(t)).toEqual([admins]);
    expect(first).not.toBe(second);
  });
});

describe('the photo goes out', () => {
  const out = withOutgoing();

  it('as sender.photo to the chat channel and agent.photo in event webhooks', async () => {
    const { t, customer, receiver } = out;
    const photo = (await upload(t, PNG, 'image/png')).json<{ photo_url: string }>().photo_url;
    const { chatId } = await chatToCustomer(out, 'photo-1', 'hello');
    expect((await t.app.inject({ method: 'POST', url: `/api/v1/chats/${chatId}/accept`, headers: bearer(t.adminToken) })).statusCode).toBe(200);
    const reply = await t.app.inject({
      method: 'POST',
      url: `/api/v1/chats/${chatId}/messages`,
      headers: bearer(t.adminToken),
      payload: { type: 'text', text: 'Hi Pia' },
    });
    expect(reply.statusCode).toBe(201);

    const delivered = await waitFor(() => customer.requests.find((r) => r.body.includes('Hi Pia')));
    expect(JSON.parse(delivered.body)).toMatchObject({ sender: { name: 'Administrator', photo: photo }, recipient: { id: 'photo-1' } });
    const accepted = await waitFor(() => receiver.requests.find((r) => r.body.includes('"chat_accepted"')));
    expect(JSON.parse(accepted.body)).toMatchObject({
      event_name: 'chat_accepted',
      agent: { id: 1, name: 'Administrator', email: 'admin@example.com', photo },
    });
  });
});
