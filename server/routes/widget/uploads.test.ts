/** Visitor uploads: allowed types and sizes, storage under DATA_DIR/uploads, serving (nosniff, attachment for non-images), use in a message. */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../../../test/helpers/testApp.js';
import { createWidget, sendText, startSession, type TestWidget } from '../../../test/helpers/widget.js';

const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.from('rest of a png')]);
const PDF = Buffer.from('%PDF-1.4\n% a tiny pdf\n');

describe('widget uploads', () => {
  let t: TestApp;
  let widget: TestWidget;
  let token: string;

  beforeAll(async () => {
    t = await createTestApp();
    widget = await createWidget(t);
    token = (await startSession(t, widget.widget_id)).visitor_token;
  });
  afterAll(() => t.close());

  const upload = (body: Buffer, type: string, name?: string, auth = token) =>
    t.app.inject({
      method: 'POST',
      url: `/widget/api/${widget.widget_id}/uploads`,
      headers: { ...bearer(auth), 'content-type': type, ...(name ? { 'x-file-name': name } : {}), 'x-forwarded-for': '198.51.100.7' },
      payload: body,
    });

  it('stores an image under DATA_DIR/uploads and serves it inline, never sniffed', async () => {
    const res = await upload(PNG, 'image/png', encodeURIComponent('Screen shot ü.png'));
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({
      file: expect.stringMatching(/^http:\/\/parley\.test\/widget\/uploads\/[a-z0-9]{24}-Screen_shot\.png$/),
      file_name: 'Screen shot ü.png',
      file_size: PNG.length,
      type: 'photo',
    });
    const name = body.file.split('/').pop();
    expect(fs.readFileSync(path.join(t.config.dataDir, 'uploads', name))).toEqual(PNG);
    const served = await t.app.inject({ method: 'GET', url: `/widget/uploads/${name}` });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['content-disposition']).toBeUndefined();
    expect(served.rawPayload).toEqual(PNG);
  });

  it('serves other files as attachments, and a message can carry the file', async () => {
    const res = await upload(PDF, 'application/pdf', 'invoice.pdf');
    const body = res.json();
    expect(body).toMatchObject({ file_name: 'invoice.pdf', type: 'document' });
    const name = body.file.split('/').pop();
    const served = await t.app.inject({ method: 'GET', url: `/widget/uploads/${name}` });
    expect(served.headers['content-type']).toBe('application/pdf');
    expect(served.headers['content-disposition']).toBe(`attachment; filename="${name.slice(25)}"`);

    const sent = await sendText(t, widget.widget_id, token, '', {
      type: 'document',
      text: undefined,
      file: body.file,
      file_name: body.file_name,
      file_size: body.file_size,
    });
    const chat = await t.app.inject({ method: 'GET', url: `/api/v1/chats/${sent.chat_id}`, headers: bearer(t.adminToken) });
    expect(chat.json().messages.at(-1)).toMatchObject({ type: 'document', file: body.file, file_name: 'invoice.pdf', file_size: PDF.length });
  });

  it('takes in a message only a URL of its own upload, checked on the parsed path, and stores nothing otherwise', async () => {
    const res = await upload(PNG, 'image/png', 'a.png');
    const file: string = res.json().file;
    const name = file.split('/').pop()!;
    const chats = async () => (await t.app.inject({ method: 'GET', url: '/api/v1/chats', headers: bearer(t.adminToken) })).json().length;
    const before = await chats();
    for (const bad of [
      `http://parley.test/widget/uploads/../../api/v1/me`,
      `http://parley.test/widget/uploads/%2e%2e/%2e%2e/evil.png`,
      `http://parley.test/widget/uploads/x/../../../elsewhere/${name}`,
      `http://parley.test/widget/uploads/${name}?download=../../x`,
      `http://parley.test/widget/uploads/${name}#x`,
      `http://user@parley.test/widget/uploads/${name}`,
      `http://parley.test:8443/widget/uploads/${name}`,
      `http://parley.test/widget/uploads/a%2F..%2F${name}`,
      `http://parley.test/widget/uploads/`,
      `https://parley.test/widget/uploads/${name}`,
    ]) {
      const sent = await t.app.inject({
        method: 'POST',
        url: `/widget/api/${widget.widget_id}/messages`,
        headers: bearer(token),
        payload: { type: 'photo', file: bad },
      });
      expect(sent.statusCode, bad).toBe(400);
    }
    expect(await chats()).toBe(before);
    const ok = await t.app.inject({
      method: 'POST',
      url: `/widget/api/${widget.widget_id}/messages`,
      headers: bearer(token),
      payload: { type: 'photo', file },
    });
    expect(ok.statusCode).toBe(201);
  });

  it('refuses other types, content that lies about its type, empty and oversized files, and strangers', async () => {
    for (const [body, type] of [
      [Buffer.from('<html><script>alert(1)</script>'), 'text/html'],
      [Buffer.from('<svg/>'), 'image/svg+xml'],
      [Buffer.from('<html>'), 'image/png'],
    ] as const) {
      const res = await upload(body, type);
      expect(res.statusCode, type).toBe(415);
      expect(res.json().error.code).toBe('unsupported_media_type');
    }
    expect((await upload(Buffer.alloc(0), 'text/plain')).statusCode).toBe(400);
    const big = await upload(Buffer.alloc(10 * 1024 * 1024 + 1, 0x61), 'text/plain');
    expect(big.statusCode).toBe(413);
    expect(big.json().error.message).toMatch(/10 MB/);
    expect((await upload(Buffer.from('hello'), 'text/plain', 'a.txt', 'not-a-token')).statusCode).toBe(401);
    expect((await upload(Buffer.alloc(10 * 1024 * 1024, 0x61), 'text/plain', 'big.txt')).statusCode).toBe(200);
  });

  it('serves nothing outside the uploads directory', async () => {
    for (const name of ['..%2F..%2Fetc%2Fpasswd', 'missing', `${'a'.repeat(24)}-nothing.png`, '.hidden.png']) {
      expect((await t.app.inject({ method: 'GET', url: `/widget/uploads/${name}` })).statusCode, name).toBe(404);
    }
  });
});
