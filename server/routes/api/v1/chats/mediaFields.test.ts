/**
 * Outbound media always carry what the spec requires (#32 item 5): a video,
 * audio, voice, photo, sticker or document message has file, file_name and
 * file_size (a positive integer of bytes). An agent's media message through
 * POST /api/v1/chats/:id/messages whose file is an upload Parley stores takes
 * the upload's size (and, when none is given, its stored name); one whose
 * file is anything else must give both, or is refused with a 400 naming the
 * missing field(s), storing and sending nothing. What the customer system's
 * endpoint (a real HTTP server) receives always carries both.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UploadResponse } from '../../../../../protocol/widget.js';
import { createOtherAccount } from '../../../../../test/helpers/accounts.js';
import { createChatChannel, postInbound, startCustomerEndpoint, textMessage, waitFor, type ChatChannel } from '../../../../../test/helpers/chatChannel.js';
import { bearer, createTestApp, type TestApp } from '../../../../../test/helpers/testApp.js';
import { MEDIA_TYPES } from '../../../../domain/messages/normalizeMessage.js';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==', 'base64');
const LINK = 'https://cdn.example.com/files/terms.pdf';

interface Body {
  message: Record<string, unknown>;
}

describe('file_name and file_size on every agent media message', () => {
  let t: TestApp;
  let channel: ChatChannel;
  let customer: Awaited<ReturnType<typeof startCustomerEndpoint>>;
  let senders = 0;

  const send = (chatId: number, body: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: `/api/v1/chats/${chatId}/messages`, headers: bearer(t.adminToken), payload: body });
  const upload = async (chatId: number, data: Buffer, type: string, name: string): Promise<UploadResponse> => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/chats/${chatId}/uploads`,
      headers: { ...bearer(t.adminToken), 'content-type': type, 'x-file-name': encodeURIComponent(name) },
      payload: data,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<UploadResponse>();
  };
  /** A new pending chat of the chat channel, from a sender of its own. */
  const newChat = async (): Promise<{ id: number; sender: string }> => {
    const sender = `media-${++senders}`;
    expect((await postInbound(t, channel, textMessage(sender, 'hello', { name: sender }))).statusCode).toBe(200);
    const chats = (await t.app.inject({ method: 'GET', url: '/api/v1/chats?status=pending', headers: bearer(t.adminToken) })).json<
      Array<{ id: number; visitor: { name: string } }>
    >();
    return { id: chats.find((c) => c.visitor.name === sender)!.id, sender };
  };
  /** The body the customer endpoint received for a message id. */
  const received = async (messageId: number): Promise<Body> => {
    const req = await waitFor(() => customer.requests.find((r) => (JSON.parse(r.body) as Body).message.id === String(messageId)));
    return JSON.parse(req.body) as Body;
  };
  const stateOf = async (chatId: number) => ({
    status: (await t.app.ctx.db.selectFrom('chats').select('status').where('id', '=', chatId).executeTakeFirstOrThrow()).status,
    messages: (await t.app.ctx.db.selectFrom('messages').select('id').where('chat_id', '=', chatId).execute()).length,
    deliveries: (await t.app.ctx.db.selectFrom('deliveries').select('id').where('chat_id', '=', chatId).execute()).length,
  });

  beforeAll(async () => {
    t = await createTestApp();
    customer = await startCustomerEndpoint();
    channel = await createChatChannel(t, { webhook_url: customer.url });
  });
  afterAll(async () => {
    await t.close();
    await customer.close();
  });

  it.each(MEDIA_TYPES)('refuses a %s linking elsewhere without file_name and file_size (400 naming both); nothing stored or sent', async (type) => {
    const chat = await newChat();
    const before = await stateOf(chat.id);
    const res = await send(chat.id, { type, file: LINK, text: 'see this' });
    expect(res.statusCode).toBe(400);
    const error = res.json<{ error: { code: string; message: string } }>().error;
    expect(error.code).toBe('validation_failed');
    expect(error.message).toContain('file_name');
    expect(error.message).toContain('file_size');
    expect(await stateOf(chat.id)).toEqual(before);
    expect(before).toMatchObject({ status: 'pending', messages: 1, deliveries: 0 });
  });

  it.each([
    ['no file_size', { file_name: 'terms.pdf' }, 'file_size', 'file_name'],
    ['no file_name', { file_size: 4096 }, 'file_name', 'file_size'],
    ['a blank file_name', { file_name: '   ', file_size: 4096 }, 'file_name', 'file_size'],
    ['a private note without file_size', { file_name: 'terms.pdf', internal: true }, 'file_size', 'file_name'],
  ])('refuses a link elsewhere with %s, naming only the missing field', async (_what, extra, missing, present) => {
    const chat = await newChat();
    const before = await stateOf(chat.id);
    const res = await send(chat.id, { type: 'document', file: LINK, ...extra });
    expect(res.statusCode).toBe(400);
    const error = res.json<{ error: { code: string; message: string } }>().error;
    expect(error.code).toBe('validation_failed');
    expect(error.message).toContain(missing);
    expect(error.message).not.toContain(present);
    expect(await stateOf(chat.id)).toEqual(before);
  });

  it.each([0, -3, 1.5, 'ten', ''])('refuses a file_size of %j (400 naming file_size)', async (size) => {
    const chat = await newChat();
    const before = await stateOf(chat.id);
    const res = await send(chat.id, { type: 'document', file: LINK, file_name: 'terms.pdf', file_size: size });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ error: { code: string; message: string } }>().error).toMatchObject({
      code: 'validation_failed',
      message: expect.stringContaining('file_size'),
    });
    expect(await stateOf(chat.id)).toEqual(before);
  });

  it('sends a link elsewhere with both fields as given', async () => {
    const chat = await newChat();
    const res = await send(chat.id, { type: 'document', file: LINK, file_name: 'Terms 2026.pdf', file_size: 4096 });
    expect(res.statusCode).toBe(201);
    const body = await received(res.json<{ id: number }>().id);
    expect(body.message).toEqual({ type: 'document', id: String(res.json<{ id: number }>().id), file: LINK, file_name: 'Terms 2026.pdf', file_size: 4096 });
  });

  it('fills both from a Parley upload sent without them; the customer endpoint receives them', async () => {
    const chat = await newChat();
    const file = await upload(chat.id, PDF, 'application/pdf', 'Invoice März.pdf');
    const res = await send(chat.id, { type: file.type, file: file.file, text: 'Your invoice' });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json<{ id: number }>().id;
    // The stored name without its random prefix, and the stored size.
    expect(res.json()).toMatchObject({ type: 'document', file: file.file, file_name: 'Invoice_M_rz.pdf', file_size: PDF.length });
    const body = await received(id);
    expect(body).toMatchObject({ recipient: { id: chat.sender } });
    expect(body.message).toEqual({
      type: 'document',
      id: String(id),
      text: 'Your invoice',
      file: file.file,
      file_name: 'Invoice_M_rz.pdf',
      file_size: PDF.length,
    });
    // The upload is attached to the message (kept while it is).
    const row = await t.app.ctx.db.selectFrom('uploads').select('message_id').where('size', '=', PDF.length).executeTakeFirstOrThrow();
    expect(row.message_id).toBe(id);
  });

  it('keeps a given file_name of a Parley upload, and takes its stored size over a given one', async () => {
    const chat = await newChat();
    const file = await upload(chat.id, PNG, 'image/png', 'chart.png');
    const named = await send(chat.id, { type: 'photo', file: file.file, file_name: 'Quarterly chart.png' });
    expect(named.statusCode, named.body).toBe(201);
    expect((await received(named.json<{ id: number }>().id)).message).toMatchObject({ file_name: 'Quarterly chart.png', file_size: PNG.length });

    const wrong = await send(chat.id, { type: 'photo', file: file.file, file_name: 'chart.png', file_size: 999_999 });
    expect(wrong.statusCode, wrong.body).toBe(201);
    expect(wrong.json()).toMatchObject({ file_name: 'chart.png', file_size: PNG.length });
    expect((await received(wrong.json<{ id: number }>().id)).message).toMatchObject({ file_name: 'chart.png', file_size: PNG.length });
  });

  it('fills from an upload an earlier message already carries', async () => {
    const chat = await newChat();
    const file = await upload(chat.id, PDF, 'application/pdf', 'first.pdf');
    expect((await send(chat.id, { type: 'document', file: file.file, file_name: 'first.pdf', file_size: PDF.length })).statusCode).toBe(201);
    const again = await send(chat.id, { type: 'document', file: file.file });
    expect(again.statusCode, again.body).toBe(201);
    expect((await received(again.json<{ id: number }>().id)).message).toMatchObject({ file_name: 'first.pdf', file_size: PDF.length });
  });

  it('counts an upload of another account, under another host, or one gone as a link elsewhere (400 naming both)', async () => {
    const chat = await newChat();
    const other = await createOtherAccount(t);
    const foreignName = `${'f'.repeat(24)}-secret.pdf`;
    await t.app.ctx.db.insertInto('uploads').values({ name: foreignName, account_id: other.accountId, size: 1234, created_at: Date.now() }).execute();
    const own = await upload(chat.id, PDF, 'application/pdf', 'mine.pdf');
    const ownName = new URL(own.file).pathname.split('/').pop()!;
    for (const file of [
      `${t.config.publicUrl}/widget/uploads/${foreignName}`,
      `https://elsewhere.example/widget/uploads/${ownName}`,
      `${t.config.publicUrl}/widget/uploads/${'g'.repeat(24)}-gone.pdf`,
    ]) {
      const before = await stateOf(chat.id);
      const res = await send(chat.id, { type: 'document', file });
      expect(res.statusCode, file).toBe(400);
      const error = res.json<{ error: { code: string; message: string } }>().error;
      expect(error.code).toBe('validation_failed');
      expect(error.message).toContain('file_name');
      expect(error.message).toContain('file_size');
      expect(await stateOf(chat.id)).toEqual(before);
    }
    // The other account's upload was not attached to anything.
    const foreign = await t.app.ctx.db.selectFrom('uploads').select('message_id').where('name', '=', foreignName).executeTakeFirstOrThrow();
    expect(foreign.message_id).toBeNull();
  });

  it('is described in the served OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json<{
      paths: Record<
        string,
        Record<string, { requestBody?: { content: Record<string, { schema: { properties: Record<string, { description?: string }> } }> } }>
      >;
    }>();
    const body = doc.paths['/api/v1/chats/{id}/messages'].post.requestBody!.content['application/json'].schema.properties;
    expect(body.file_name.description).toMatch(/Required unless file is an upload Parley stores/);
    expect(body.file_size.description).toMatch(/bytes\. Required unless file is an upload Parley stores/);
  });
});
