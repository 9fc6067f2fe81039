/**
 * Visitor uploads, what server/routes/widget/uploads.test.ts does not cover:
 * the per-visitor and per-address upload limits (429 + Retry-After, nothing
 * written), every kind of type a browser could run (HTML, XHTML, SVG, script,
 * unknown, none; any case, with parameters) refused with nothing written, a
 * text file full of markup served only as a sandboxed attachment, and file
 * names built to escape the directory or the Content-Disposition header.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../server/routes/widget/limits.js';
import { bearer, createTestApp, type TestApp } from '../helpers/testApp.js';
import { createWidget, freshIp, startSession, type TestWidget } from '../helpers/widget.js';

describe('widget uploads: limits, types and names', () => {
  let now = Date.parse('2026-05-04T10:00:00Z');
  let t: TestApp;
  let widget: TestWidget;
  const dir = () => path.join(t.config.dataDir, 'uploads');
  const files = () => (fs.existsSync(dir()) ? fs.readdirSync(dir()).sort() : []);
  const upload = (token: string, body: Buffer, type: string | undefined, o: { name?: string; ip?: string } = {}) =>
    t.app.inject({
      method: 'POST',
      url: `/widget/api/${widget.widget_id}/uploads`,
      headers: {
        ...bearer(token),
        ...(type === undefined ? {} : { 'content-type': type }),
        ...(o.name === undefined ? {} : { 'x-file-name': o.name }),
        'x-forwarded-for': o.ip ?? freshIp(),
      },
      payload: body,
    });
  const visitor = async () => (await startSession(t, widget.widget_id)).visitor_token;

  beforeAll(async () => {
    t = await createTestApp({ clock: () => now, workers: false });
    widget = await createWidget(t);
  });
  afterAll(() => t.close());

  it(`refuses the ${LIMITS.uploadPerVisitor.capacity + 1}th file of a visitor within a minute with 429 and writes nothing`, async () => {
    const token = await visitor();
    for (let i = 0; i < LIMITS.uploadPerVisitor.capacity; i++) expect((await upload(token, Buffer.from(`note ${i}`), 'text/plain')).statusCode).toBe(200);
    const before = files();
    const refused = await upload(token, Buffer.from('one too many'), 'text/plain');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).toEqual({ code: 'too_many_requests', message: expect.stringMatching(/sending files too quickly/) });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(files()).toEqual(before);
    // Another visitor is not held back; the first one is, until the bucket refills.
    expect((await upload(await visitor(), Buffer.from('fine'), 'text/plain')).statusCode).toBe(200);
    now += LIMITS.uploadPerVisitor.windowMs;
    expect((await upload(token, Buffer.from('later'), 'text/plain')).statusCode).toBe(200);
  });

  it(`refuses more than ${LIMITS.uploadPerIp.capacity} files a minute from one address, whoever the visitors`, async () => {
    now += 10 * 60_000;
    const ip = '192.0.2.150';
    let allowed = 0;
    let refused = null;
    for (let i = 0; i < LIMITS.uploadPerIp.capacity + 5 && !refused; i++) {
      const res = await upload(await visitor(), Buffer.from(`from one office ${i}`), 'text/plain', { ip });
      if (res.statusCode === 200) allowed += 1;
      else refused = res;
    }
    expect(allowed).toBe(LIMITS.uploadPerIp.capacity);
    expect(refused?.statusCode).toBe(429);
    expect((await upload(await visitor(), Buffer.from('elsewhere'), 'text/plain', { ip: '192.0.2.151' })).statusCode).toBe(200);
  });

  it('refuses every type a browser could run or sniff, whatever its case or parameters, and writes nothing', async () => {
    now += 10 * 60_000;
    const before = files();
    const html = Buffer.from('<!doctype html><script>alert(1)</script>');
    for (const type of [
      'text/html',
      'TEXT/HTML; charset=utf-8',
      'application/xhtml+xml',
      'image/svg+xml',
      'image/svg+xml; charset=utf-8',
      'text/javascript',
      'application/javascript',
      'application/x-shockwave-flash',
      'application/octet-stream',
      'text/xml',
      'application/json',
      'multipart/form-data; boundary=x',
      '',
      undefined,
    ]) {
      // A visitor each: refused files count against the visitor's limit too.
      const res = await upload(await visitor(), html, type);
      expect(res.statusCode, String(type)).toBe(415);
      expect(res.json().error.code).toBe('unsupported_media_type');
    }
    // Allowed types whose content is not what they say.
    for (const type of ['image/png', 'image/jpeg', 'image/gif', 'application/pdf', 'application/zip']) {
      expect((await upload(await visitor(), html, type)).statusCode, type).toBe(415);
    }
    expect(files()).toEqual(before);
  });

  it('serves a text file full of markup only as a sandboxed, never-sniffed attachment', async () => {
    const res = await upload(await visitor(), Buffer.from('<html><body><script>parent.__xss=1</script></body></html>'), 'text/plain', { name: 'page.html' });
    expect(res.statusCode).toBe(200);
    const name = String(res.json().file).split('/').pop();
    expect(name).toMatch(/^[a-z0-9]{24}-page\.txt$/);
    const served = await t.app.inject({ method: 'GET', url: `/widget/uploads/${name}` });
    expect(served.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(served.headers['content-disposition']).toBe('attachment; filename="page.txt"');
  });

  it('keeps hostile file names out of the path and the headers, and shows them as sent (as text)', async () => {
    const token = await visitor();
    const names = [
      '../../../../etc/passwd',
      '..\\..\\windows\\win.ini',
      "a\"; filename*=UTF-8''evil.html",
      'line\r\nSet-Cookie: parley_token=x.txt',
      '<img src=x onerror=alert(1)>.txt',
      encodeURIComponent('%2e%2e%2f..%2fsecret.txt'),
      `${'long'.repeat(300)}.txt`,
      '.htaccess',
    ];
    for (const raw of names) {
      const res = await upload(token, Buffer.from('plain'), 'text/plain', { name: raw });
      expect(res.statusCode, raw).toBe(200);
      const body = res.json();
      const stored = String(body.file).split('/').pop() ?? '';
      expect(stored, raw).toMatch(/^[a-z0-9]{24}-[A-Za-z0-9_-][A-Za-z0-9._-]*\.txt$/);
      expect(fs.existsSync(path.join(dir(), stored))).toBe(true);
      // eslint-disable-next-line no-control-regex -- control characters are what the test looks for
      expect(body.file_name).not.toMatch(/[\u0000-\u001f/\\]/);
      expect(body.file_name.length).toBeLessThanOrEqual(255);
      const served = await t.app.inject({ method: 'GET', url: `/widget/uploads/${stored}` });
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-disposition']).toMatch(/^attachment; filename="[A-Za-z0-9._-]+"$/);
      expect(served.headers['set-cookie']).toBeUndefined();
    }
    // Everything stays inside the uploads directory.
    for (const f of files()) expect(path.dirname(path.resolve(dir(), f))).toBe(dir());
    expect(fs.existsSync(path.join(t.config.dataDir, 'etc'))).toBe(false);
  });
});
