/**
 * Uploads cannot fill the disk (#15 item 8, docs/SECURITY.md §8): an account's
 * stored uploads may not sum past UPLOAD_QUOTA_MB (413 upload_quota_exceeded,
 * nothing stored, also when uploads race); an upload no message carries is
 * deleted an hour after it was made, and so is one whose message is deleted
 * (with its channel); an attached upload stays. Both stores.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sweepUploads } from '../../retention/uploadSweeper.js';
import { bearer, createTestApp, type TestApp } from '../../../test/helpers/testApp.js';
import { createWidget, sendText, uploadingVisitor } from '../../../test/helpers/widget.js';

const KIB = 1024;
const text = (bytes: number): Buffer => Buffer.alloc(bytes, 0x61);

describe('upload limits', () => {
  let t: TestApp | null = null;
  afterEach(async () => {
    await t?.close();
    t = null;
  });

  const uploadsOnDisk = (app: TestApp): string[] => {
    const dir = path.join(app.config.dataDir, 'uploads');
    return fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
  };

  const visitorOf = uploadingVisitor;

  it('refuses an upload beyond the account quota with 413 upload_quota_exceeded, storing nothing', async () => {
    t = await createTestApp({ env: { UPLOAD_QUOTA_MB: '1' }, workers: false });
    const widget = await createWidget(t);
    const v = await visitorOf(t, widget.widget_id);

    expect((await v.upload(text(600 * KIB))).statusCode).toBe(200);
    const before = uploadsOnDisk(t);
    const refused = await v.upload(text(500 * KIB));
    expect(refused.statusCode).toBe(413);
    expect(refused.json().error.code).toBe('upload_quota_exceeded');
    expect(refused.json().error.message).toMatch(/storage for files .* is full/);
    expect(uploadsOnDisk(t)).toEqual(before);
    expect(await t.app.ctx.db.selectFrom('uploads').select('id').execute()).toHaveLength(1);
    // What still fits is taken; the quota counts every visitor of the account.
    const other = await visitorOf(t, (await createWidget(t, { name: 'Other site' })).widget_id);
    expect((await other.upload(text(400 * KIB))).statusCode).toBe(200);
    expect((await other.upload(text(30 * KIB))).statusCode).toBe(413);
  });

  it('holds the quota when uploads race', async () => {
    t = await createTestApp({ env: { UPLOAD_QUOTA_MB: '1' }, workers: false });
    const widget = await createWidget(t);
    const visitors = await Promise.all([0, 1, 2, 3, 4, 5].map(() => visitorOf(t!, widget.widget_id)));
    const answers = await Promise.all(visitors.map((v) => v.upload(text(300 * KIB))));
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes).toEqual([200, 200, 200, 413, 413, 413]);
    expect(uploadsOnDisk(t)).toHaveLength(3);
  });

  it('deletes an upload no message carries after an hour, and one whose message is deleted; keeps attached ones', async () => {
    let now = Date.UTC(2026, 0, 1, 9);
    t = await createTestApp({ env: { UPLOAD_QUOTA_MB: '1' }, workers: false, clock: () => now });
    const ctx = t.app.ctx;
    const widget = await createWidget(t);
    const v = await visitorOf(t, widget.widget_id);

    const kept = (await v.upload(text(400 * KIB), 'kept.txt')).json();
    const dropped = (await v.upload(text(400 * KIB), 'dropped.txt')).json();
    const sent = await sendText(t, widget.widget_id, v.token, '', {
      type: 'document',
      text: undefined,
      file: kept.file,
      file_name: kept.file_name,
      file_size: kept.file_size,
    });
    expect(sent.chat_id).toBeGreaterThan(0);
    const name = (file: string): string => file.split('/').pop()!;
    const served = async (file: string): Promise<number> => (await t!.app.inject({ method: 'GET', url: `/widget/uploads/${name(file)}` })).statusCode;
    expect((await v.upload(text(400 * KIB))).statusCode).toBe(413); // 800 KiB kept, 1 MiB quota

    now += 59 * 60_000;
    expect(await sweepUploads(ctx)).toBe(0);
    expect(await served(dropped.file)).toBe(200);

    now += 2 * 60_000;
    expect(await sweepUploads(ctx)).toBe(1);
    expect(await served(dropped.file)).toBe(404);
    expect(uploadsOnDisk(t)).toEqual([name(kept.file)]);
    expect(await served(kept.file)).toBe(200);
    // Its space is free again.
    expect((await v.upload(text(400 * KIB))).statusCode).toBe(200);
    now += 61 * 60_000;
    expect(await sweepUploads(ctx)).toBe(1); // that one was never sent either
    expect(await served(kept.file)).toBe(200);

    // Deleting the channel deletes its chats and messages; their uploads go at the next pass.
    const del = await t.app.inject({ method: 'DELETE', url: `/api/v1/channels/${widget.id}`, headers: bearer(t.adminToken) });
    expect(del.statusCode).toBe(204);
    expect(await sweepUploads(ctx)).toBe(1);
    expect(await served(kept.file)).toBe(404);
    expect(uploadsOnDisk(t)).toEqual([]);
    expect(await ctx.db.selectFrom('uploads').select('id').execute()).toEqual([]);
  });

  it('sweeps in batches until nothing is due', async () => {
    let now = Date.UTC(2026, 0, 1, 9);
    t = await createTestApp({ workers: false, clock: () => now });
    const widget = await createWidget(t);
    for (let i = 0; i < 3; i++) {
      const v = await visitorOf(t, widget.widget_id);
      for (let j = 0; j < 3; j++) expect((await v.upload(text(10))).statusCode).toBe(200);
    }
    now += 61 * 60_000;
    expect(await sweepUploads(t.app.ctx, { batchSize: 2 })).toBe(9);
    expect(uploadsOnDisk(t)).toEqual([]);
  });
});
