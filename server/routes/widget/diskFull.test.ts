/**
 * A full disk (#31 item 8, docs/SECURITY.md §8), for real: DATA_DIR/uploads is
 * a 12 MiB tmpfs, so writes fail with the kernel's own ENOSPC (no mock of fs).
 * An upload then answers 503 storage_full with a sentence, leaves no `.tmp`
 * file, and /healthz says `"disk":"full"` (still 200: see system.ts) until
 * space is freed. A client that aborts mid-body leaves nothing either, and the
 * sweeper removes stray temporary files older than an hour. Both stores.
 *
 * Mounting needs root (the test machine's runs are); elsewhere the tmpfs
 * tests are skipped and say so.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sweepStrayTemps } from '../../retention/uploadSweeper.js';
import { bearer, createTestApp, freshStore, type TestApp, type TestStore } from '../../../test/helpers/testApp.js';
import { createWidget, freshIp, sendText, startSession } from '../../../test/helpers/widget.js';

const MIB = 1024 * 1024;
const text = (bytes: number): Buffer => Buffer.alloc(bytes, 0x61);

/** Whether this process may mount a tmpfs (root, not in a restricted container). */
function canMount(): boolean {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-mount-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', dir], { stdio: 'ignore' });
    execFileSync('umount', [dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
const mountable = canMount();
if (!mountable) console.warn('diskFull.test.ts: cannot mount a tmpfs here (needs root); the full-disk tests are skipped');

describe('a full disk', () => {
  let t: TestApp | null = null;
  let mounted: string | null = null;
  let store: TestStore | null = null;
  afterEach(async () => {
    await t?.close();
    t = null;
    if (mounted) execFileSync('umount', [mounted]);
    mounted = null;
    await store?.cleanup();
    store = null;
  });

  /** An app whose DATA_DIR/uploads is a tmpfs of `sizeMib`. */
  async function appOnSmallDisk(sizeMib: number): Promise<TestApp> {
    store = freshStore();
    const dir = path.join(store.env.DATA_DIR, 'uploads');
    fs.mkdirSync(dir);
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMib}m`, 'tmpfs', dir]);
    mounted = dir;
    return createTestApp({ store, workers: false });
  }
  const entries = (app: TestApp): string[] => fs.readdirSync(path.join(app.config.dataDir, 'uploads')).sort();
  const healthz = async (app: TestApp) => {
    const res = await app.app.inject({ method: 'GET', url: '/healthz' });
    return { status: res.statusCode, body: res.json() };
  };
  async function visitor(app: TestApp, widgetId: string) {
    const token = (await startSession(app, widgetId)).visitor_token;
    return {
      token,
      upload: (body: Buffer) =>
        app.app.inject({
          method: 'POST',
          url: `/widget/api/${widgetId}/uploads`,
          headers: { ...bearer(token), 'content-type': 'text/plain', 'x-file-name': 'big.txt', 'x-forwarded-for': freshIp() },
          payload: body,
        }),
    };
  }

  it.skipIf(!mountable)('answers 503 storage_full, leaves no temporary file, and /healthz says so until space is freed', async () => {
    t = await appOnSmallDisk(12);
    expect(await healthz(t)).toEqual({ status: 200, body: { status: 'ok' } });
    const widget = await createWidget(t);
    const first = await visitor(t, widget.widget_id);
    const stored = await first.upload(text(9 * MIB));
    expect(stored.statusCode).toBe(200);
    // Under 10 MiB left: no room for one more file of the largest size.
    expect(await healthz(t)).toEqual({ status: 200, body: { status: 'ok', disk: 'full' } });

    const before = entries(t);
    const refused = await (await visitor(t, widget.widget_id)).upload(text(5 * MIB));
    expect(refused.statusCode).toBe(503);
    expect(refused.json().error).toEqual({ code: 'storage_full', message: expect.stringMatching(/^The file was not stored: the server's disk is full\./) });
    expect(entries(t)).toEqual(before); // no .tmp left behind
    expect(await t.app.ctx.db.selectFrom('uploads').select('id').execute()).toHaveLength(1);

    // An agent's file in a chat, and an agent's photo: the same.
    const { chat_id } = await sendText(t, widget.widget_id, first.token, 'hello');
    const agentFile = await t.app.inject({
      method: 'POST',
      url: `/api/v1/chats/${chat_id}/uploads`,
      headers: { ...bearer(t.adminToken), 'content-type': 'text/plain', 'x-file-name': 'a.txt' },
      payload: text(5 * MIB),
    });
    expect(agentFile.statusCode).toBe(503);
    expect(agentFile.json().error.code).toBe('storage_full');
    expect(entries(t)).toEqual(before);

    // Freeing the visitor's file makes room again: healthy, and uploads work.
    const visitorId = (await t.app.inject({ method: 'GET', url: `/api/v1/chats/${chat_id}`, headers: bearer(t.adminToken) })).json().visitor.id;
    expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/visitors/${visitorId}/uploads`, headers: bearer(t.adminToken) })).statusCode).toBe(200);
    expect(await healthz(t)).toEqual({ status: 200, body: { status: 'ok' } });
    expect((await first.upload(text(5 * MIB))).statusCode).toBe(200);
  });

  it.skipIf(!mountable)("an agent's photo on a full disk is 503 storage_full, nothing left", async () => {
    t = await appOnSmallDisk(1);
    const before = fs.readdirSync(path.join(t.config.dataDir, 'uploads'));
    const png = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), text(MIB + 100)]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/me/photo',
      headers: { ...bearer(t.adminToken), 'content-type': 'image/png' },
      payload: png,
    });
    expect(res.statusCode).toBe(503);
    expect(res.json().error).toEqual({ code: 'storage_full', message: expect.stringMatching(/^The photo was not stored: the server's disk is full\./) });
    expect(entries(t)).toEqual(before);
  });

  it('leaves nothing when a client aborts mid-body', async () => {
    t = await createTestApp({ workers: false });
    const widget = await createWidget(t);
    const v = await visitor(t, widget.widget_id);
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = new URL(address);
    await new Promise<void>((resolve, reject) => {
      const socket = net.connect(Number(port), '127.0.0.1', () => {
        socket.write(
          `POST /widget/api/${widget.widget_id}/uploads HTTP/1.1\r\nHost: parley.test\r\nAuthorization: Bearer ${v.token}\r\n` +
            `Content-Type: text/plain\r\nX-File-Name: cut.txt\r\nContent-Length: ${5 * MIB}\r\n\r\n`,
        );
        socket.write(text(MIB), () => setTimeout(() => socket.destroy(), 100));
      });
      socket.on('close', () => resolve());
      socket.on('error', reject);
    });
    // The server saw the abort; nothing was written, and a later upload works.
    await new Promise((r) => setTimeout(r, 200));
    const dir = path.join(t.config.dataDir, 'uploads');
    expect(fs.existsSync(dir) ? fs.readdirSync(dir) : []).toEqual([]);
    expect(await t.app.ctx.db.selectFrom('uploads').select('id').execute()).toEqual([]);
    expect((await v.upload(text(10))).statusCode).toBe(200);
  });

  it('sweeps stray temporary files older than an hour, and nothing else', async () => {
    const now = Date.UTC(2026, 0, 1, 9);
    t = await createTestApp({ workers: false, clock: () => now });
    const dir = path.join(t.config.dataDir, 'uploads');
    fs.mkdirSync(dir, { recursive: true });
    const make = (name: string, ageMs: number): void => {
      fs.writeFileSync(path.join(dir, name), 'x');
      const at = new Date(now - ageMs);
      fs.utimesSync(path.join(dir, name), at, at);
    };
    make('.abcdefghijklmnopqrstuvwx-old.txt.12345678.tmp', 61 * 60_000);
    make('.abcdefghijklmnopqrstuvwx-new.txt.12345678.tmp', 10 * 60_000);
    make('abcdefghijklmnopqrstuvwx-kept.txt', 5 * 3600_000);
    expect(await sweepStrayTemps(t.app.ctx)).toBe(1);
    expect(fs.readdirSync(dir).sort()).toEqual(['.abcdefghijklmnopqrstuvwx-new.txt.12345678.tmp', 'abcdefghijklmnopqrstuvwx-kept.txt']);
  });
});
