/**
 * Scheduled backups (#33): with BACKUP_DIR set, one archive per
 * BACKUP_INTERVAL_HOURS, taken by exactly one of the instances that see it
 * fall due; the oldest beyond BACKUP_KEEP removed; Admin → System (GET
 * /api/v1/system) shows the last one (time, size, result) and the next; a
 * failed one is recorded, shown and mailed to the administrators.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SystemDto } from '../../protocol/agent.js';
import { bearer, createTestApp, testDialect, type TestApp } from '../../test/helpers/testApp.js';
import { archiveName, takeScheduledBackup } from './scheduled.js';

const HOUR = 3600_000;

describe('scheduled backups', () => {
  let t: TestApp;
  let dir: string;
  let now = Date.UTC(2026, 11, 1, 10, 15);
  const system = async (app: TestApp) => {
    const res = await app.app.inject({ method: 'GET', url: '/api/v1/system', headers: bearer(app.adminToken) });
    expect(res.statusCode).toBe(200);
    return res.json<SystemDto>().backups;
  };

  beforeAll(async () => {
    dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'parley-sched-')), 'backups');
    t = await createTestApp({ workers: false, clock: () => now, env: { BACKUP_DIR: dir, BACKUP_INTERVAL_HOURS: '1', BACKUP_KEEP: '2' } });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(path.dirname(dir), { recursive: true, force: true });
  });

  it('is off without BACKUP_DIR', async () => {
    const off = await createTestApp({ workers: false });
    try {
      expect(await takeScheduledBackup(off.app.ctx)).toEqual({ taken: false });
      expect(await system(off)).toEqual({ enabled: false, dir: null, interval_hours: 24, keep: 7, last: null, last_failed: null, next_at: null });
    } finally {
      await off.close();
    }
  });

  it('takes one backup per interval, however many look at once, and shows it', async () => {
    expect(await system(t)).toMatchObject({ enabled: true, dir, interval_hours: 1, keep: 2, last: null, next_at: now });
    // A second instance on the same database (PostgreSQL), or a second look of the same one, at the same time.
    const other =
      testDialect() === 'postgres'
        ? await createTestApp({ workers: false, clock: () => now, store: t.store, env: { BACKUP_DIR: dir, BACKUP_INTERVAL_HOURS: '1' } })
        : t;
    try {
      const outcomes = await Promise.all([takeScheduledBackup(t.app.ctx), takeScheduledBackup(other.app.ctx), takeScheduledBackup(t.app.ctx)]);
      expect(outcomes.filter((o) => o.taken)).toHaveLength(1);
    } finally {
      if (other !== t) await other.close();
    }
    const slot = Date.UTC(2026, 11, 1, 10);
    expect(fs.readdirSync(dir)).toEqual([archiveName(slot)]);
    expect(archiveName(slot)).toBe('parley-20261201T100000Z.tar.gz');
    const b = await system(t);
    expect(b.last).toEqual({
      started_at: now,
      finished_at: now,
      status: 'ok',
      file: path.join(dir, archiveName(slot)),
      size_bytes: fs.statSync(path.join(dir, archiveName(slot))).size,
      chats: 0,
      messages: 0,
      error: null,
    });
    expect(b.next_at).toBe(slot + HOUR);
    // Later in the same interval: nothing more.
    now += 20 * 60_000;
    expect(await takeScheduledBackup(t.app.ctx)).toEqual({ taken: false });
  });

  it('keeps BACKUP_KEEP archives, removing the oldest, and nothing else in the directory', async () => {
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'mine');
    for (let i = 0; i < 3; i++) {
      now += HOUR;
      expect(await takeScheduledBackup(t.app.ctx)).toMatchObject({ taken: true, status: 'ok' });
    }
    expect(fs.readdirSync(dir).sort()).toEqual(['notes.txt', 'parley-20261201T120000Z.tar.gz', 'parley-20261201T130000Z.tar.gz']);
  });

  it('records a failure, shows it and mails the administrators', async () => {
    const blocked = path.join(path.dirname(dir), 'a-file');
    fs.writeFileSync(blocked, 'not a directory');
    const f = await createTestApp({ workers: false, clock: () => now, env: { BACKUP_DIR: blocked } });
    try {
      const outcome = await takeScheduledBackup(f.app.ctx);
      expect(outcome).toMatchObject({ taken: true, status: 'failed', error: expect.stringMatching(/EEXIST|ENOTDIR|not a directory/) });
      const b = await system(f);
      expect(b.last).toMatchObject({ status: 'failed', error: outcome.taken ? outcome.error : '' });
      const mails = await f.app.ctx.db.selectFrom('deliveries').select(['url', 'event_type', 'body']).where('kind', '=', 'mail').execute();
      expect(mails).toEqual([expect.objectContaining({ url: 'mailto:admin@example.com', event_type: 'mail.backup_failed' })]);
      expect(mails[0].body).toContain('The scheduled backup failed');
    } finally {
      await f.close();
    }
  });
});
