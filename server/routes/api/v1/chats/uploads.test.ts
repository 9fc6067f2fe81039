/**
 * Agents attach files to replies (#20): POST /api/v1/chats/:id/uploads takes
 * the file like the widget's uploads (type by Content-Type checked against the
 * leading bytes, 10 MB, the account's quota), the agent sends it as the spec's
 * media message, the upload is kept with that message (not swept), the
 * visitor gets it, and a chat-channel customer receives the spec's media body
 * with a URL it can fetch; the chat_finished transcript names the file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { UploadResponse } from '../../../../../protocol/widget.js';
import { addAgent, createOtherAccount } from '../../../../../test/helpers/accounts.js';
import { waitFor } from '../../../../../test/helpers/chatChannel.js';
import { bearer, createTestApp, type TestApp } from '../../../../../test/helpers/testApp.js';
import { chatToCustomer, withOutgoing } from '../../../../../test/helpers/outgoing.js';
import { createWidget, sendText, startSession } from '../../../../../test/helpers/widget.js';
import { sweepUploads } from '../../../../retention/uploadSweeper.js';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==', 'base64');
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

const upload = (t: TestApp, chatId: number, data: Buffer, type: string | undefined, o: { token?: string; name?: string } = {}) =>
  t.app.inject({
    method: 'POST',
    url: `/api/v1/chats/${chatId}/uploads`,
    headers: { ...bearer(o.token ?? t.adminToken), ...(type ? { 'content-type': type } : {}), ...(o.name ? { 'x-file-name': o.name } : {}) },
    payload: data,
  });
const send = (t: TestApp, chatId: number, body: Record<string, unknown>, token = t.adminToken) =>
  t.app.inject({ method: 'POST', url: `/api/v1/chats/${chatId}/messages`, headers: bearer(token), payload: body });
const pathOf = (url: string): string => new URL(url).pathname;
const onDisk = (t: TestApp): string[] => {
  const dir = path.join(t.config.dataDir, 'uploads');
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
};

async function widgetChat(t: TestApp): Promise<{ chatId: number; token: string; widgetId: string }> {
  const widget = await createWidget(t);
  const s = await startSession(t, widget.widget_id);
  const { chat_id } = await sendText(t, widget.widget_id, s.visitor_token, 'can you send me the invoice?');
  return { chatId: chat_id, token: s.visitor_token, widgetId: widget.widget_id };
}

describe('POST /api/v1/chats/:id/uploads', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('stores the file, which the agent sends as a media message the visitor receives; kept while the message is', async () => {
    let now = Date.UTC(2026, 10, 27, 9);
    t = await createTestApp({ workers: false, clock: () => now });
    const { chatId, token, widgetId } = await widgetChat(t);
    const res = await upload(t, chatId, PDF, 'application/pdf', { name: encodeURIComponent('Invoice März.pdf') });
    expect(res.statusCode).toBe(200);
    const file = res.json<UploadResponse>();
    expect(file).toEqual({
      file: expect.stringMatching(/^http:\/\/parley\.test\/widget\/uploads\/[a-z0-9]{24}-Invoice_M_rz\.pdf$/),
      file_name: 'Invoice März.pdf',
      file_size: PDF.length,
      type: 'document',
    });
    const served = await t.app.inject({ method: 'GET', url: pathOf(file.file) });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('application/pdf');
    expect(served.rawPayload.equals(PDF)).toBe(true);

    const sent = await send(t, chatId, { type: file.type, file: file.file, file_name: file.file_name, file_size: file.file_size, text: 'Here it is' });
    expect(sent.statusCode).toBe(201);
    expect(sent.json()).toMatchObject({ author: 'agent', type: 'document', file: file.file, file_name: 'Invoice März.pdf', file_size: PDF.length });
    const row = await t.app.ctx.db.selectFrom('uploads').selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({ size: PDF.length, visitor_id: null, agent_id: null, message_id: sent.json<{ id: number }>().id });

    // The visitor's widget has it (the session resumes with the chat's messages).
    const again = await startSession(t, widgetId, { token });
    expect(again.chat?.messages.at(-1)).toMatchObject({
      author: 'agent',
      type: 'document',
      file: file.file,
      file_name: 'Invoice März.pdf',
      text: 'Here it is',
    });

    // Attached: hours later the sweeper leaves it; an upload never sent is swept.
    const unsent = (await upload(t, chatId, PNG, 'image/png')).json<UploadResponse>();
    now += 2 * 60 * 60_000;
    expect(await sweepUploads(t.app.ctx)).toBe(1);
    expect(onDisk(t)).toEqual([pathOf(file.file).split('/').pop()]);
    expect((await t.app.inject({ method: 'GET', url: pathOf(unsent.file) })).statusCode).toBe(404);
  });

  it.each([
    ['a type that is not allowed (HTML)', Buffer.from('<html><script>alert(1)</script></html>'), 'text/html', 415],
    ['an SVG', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'image/svg+xml', 415],
    ['no Content-Type', PNG, undefined, 415],
    ['bytes that are not what the type says (a "PNG" that is HTML)', Buffer.from('<html>not a png</html>'), 'image/png', 415],
    ['bytes that are not what the type says (a "PDF" that is a PNG)', PNG, 'application/pdf', 415],
    ['an empty body', Buffer.alloc(0), 'image/png', 400],
    ['more than 10 MB', Buffer.concat([PNG, Buffer.alloc(10 * 1024 * 1024)]), 'image/png', 413],
  ])('refuses %s, storing nothing', async (_what, data, type, status) => {
    t = await createTestApp({ workers: false });
    const { chatId } = await widgetChat(t);
    const res = await upload(t, chatId, data, type);
    expect(res.statusCode).toBe(status);
    expect(res.json<{ error: { message: string } }>().error.message.length).toBeGreaterThan(10);
    expect(onDisk(t)).toEqual([]);
    expect(await t.app.ctx.db.selectFrom('uploads').select('id').execute()).toEqual([]);
  });

  it('counts against the upload quota (413 upload_quota_exceeded)', async () => {
    t = await createTestApp({ workers: false, env: { UPLOAD_QUOTA_MB: '1' } });
    const { chatId } = await widgetChat(t);
    await t.app.ctx.db
      .insertInto('uploads')
      .values({ name: 'x'.repeat(24) + '-full.txt', account_id: t.app.ctx.defaultAccountId, size: 1024 * 1024 - 50, created_at: Date.now() })
      .execute();
    const res = await upload(t, chatId, PNG, 'image/png');
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ error: { code: 'upload_quota_exceeded' } });
    expect(onDisk(t)).toEqual([]);
  });

  it('is refused for a finished chat (409), a chat another agent holds (403), another account’s chat (404), and without a token (401)', async () => {
    t = await createTestApp({ workers: false });
    const { chatId } = await widgetChat(t);
    expect((await t.app.inject({ method: 'POST', url: `/api/v1/chats/${chatId}/accept`, headers: bearer(t.adminToken) })).statusCode).toBe(200);
    const bea = await addAgent(t, { email: 'bea@example.com' });
    expect((await upload(t, chatId, PNG, 'image/png', { token: bea.token })).statusCode).toBe(403);
    const other = await createOtherAccount(t);
    expect((await upload(t, chatId, PNG, 'image/png', { token: other.token })).statusCode).toBe(404);
    expect(
      (await t.app.inject({ method: 'POST', url: `/api/v1/chats/${chatId}/uploads`, headers: { 'content-type': 'image/png' }, payload: PNG })).statusCode,
    ).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: `/api/v1/chats/${chatId}/finish`, headers: bearer(t.adminToken), payload: {} })).statusCode).toBe(200);
    const finished = await upload(t, chatId, PNG, 'image/png');
    expect(finished.statusCode).toBe(409);
    expect(finished.json()).toMatchObject({ error: { code: 'chat_finished' } });
    expect(onDisk(t)).toEqual([]);
  });
});

describe('an agent’s file on the chat channel and in event webhooks', () => {
  const out = withOutgoing();

  it('reaches the customer system as the spec’s media message (photo: file, file_name, file_size) with a URL it can fetch', async () => {
    const { t, customer, receiver } = out;
    const { channel, chatId } = await chatToCustomer(out, 4711, 'a picture please');
    const file = (await upload(t, chatId, PNG, 'image/png', { name: 'chart.png' })).json<UploadResponse>();
    expect(file.type).toBe('photo');
    const sent = await send(t, chatId, { type: file.type, file: file.file, file_name: file.file_name, file_size: file.file_size, text: 'Your chart' });
    expect(sent.statusCode).toBe(201);
    const id = sent.json<{ id: number }>().id;

    const delivered = await waitFor(() => customer.requests.find((r) => r.body.includes(file.file)));
    expect(delivered.url).toBe(`/${channel.public_id}`);
    expect(JSON.parse(delivered.body)).toEqual({
      sender: { name: 'Administrator' },
      recipient: { id: 4711 },
      message: { type: 'photo', id: String(id), text: 'Your chart', file: file.file, file_name: 'chart.png', file_size: PNG.length },
    });
    await waitFor(async () => {
      const m = await t.app.ctx.db.selectFrom('messages').select('delivery_status').where('id', '=', id).executeTakeFirstOrThrow();
      return m.delivery_status === 'delivered';
    });
    // The URL needs no credentials: what the customer system fetches is the file.
    const fetched = await t.app.inject({ method: 'GET', url: pathOf(file.file) });
    expect(fetched.statusCode).toBe(200);
    expect(fetched.headers['content-type']).toBe('image/png');
    expect(fetched.rawPayload.equals(PNG)).toBe(true);

    expect((await t.app.inject({ method: 'POST', url: `/api/v1/chats/${chatId}/finish`, headers: bearer(t.adminToken), payload: {} })).statusCode).toBe(200);
    const finished = await waitFor(() => receiver.requests.find((r) => r.body.includes('"chat_finished"')));
    const transcript = (JSON.parse(finished.body) as { chat: { messages: Array<{ type: string; message: string }> } }).chat.messages;
    // The transcript names the file: its URL after the caption.
    expect(transcript).toContainEqual(expect.objectContaining({ type: 'agent', message: `Your chart\n${file.file}` }));
  });
});
