/**
 * deploy/systemd/parley.service, checked by systemd's own tools: `systemd-
 * analyze verify` finds nothing to say (any line it prints, a warning
 * included, fails the test), `systemd-analyze security --offline` rates its
 * exposure "OK" (at most 2.0 of 10), and the unit runs what `npm start`
 * runs, as a user of its own, with the data in its state directory.
 * docs/DEPLOY.md, "systemd service".
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { toolsPresent } from './proxyJourney.js';

const ANALYZE = '/usr/bin/systemd-analyze';
const UNIT = path.resolve(import.meta.dirname, '../../deploy/systemd/parley.service');
const PACKAGE = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../package.json'), 'utf8')) as { scripts: { start: string } };

/** The unit's settings, key → values in order (a key may repeat). */
function settings(unit: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const raw of unit.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith('[')) continue;
    const at = line.indexOf('=');
    const key = line.slice(0, at);
    out.set(key, [...(out.get(key) ?? []), line.slice(at + 1)]);
  }
  return out;
}

describe.runIf(toolsPresent('test/deploy/systemd.test.ts', [ANALYZE]))('systemd unit (deploy/systemd/parley.service)', () => {
  it('passes systemd-analyze verify without a word', () => {
    const run = spawnSync(ANALYZE, ['verify', UNIT], { encoding: 'utf8' });
    expect(`${run.stdout}${run.stderr}`.trim()).toBe('');
    expect(run.status).toBe(0);
  });

  it('is rated OK by systemd-analyze security (exposure at most 2.0)', () => {
    const run = spawnSync(ANALYZE, ['security', '--offline=yes', '--threshold=20', '--no-pager', UNIT], { encoding: 'utf8' });
    const level = /Overall exposure level for parley\.service: ([\d.]+)/.exec(run.stdout)?.[1];
    expect(Number(level), run.stdout.slice(-2000)).toBeLessThanOrEqual(2);
    expect(run.status).toBe(0);
  });

  it('runs what npm start runs, as its own user, hardened, writing only its data', () => {
    const unit = settings(fs.readFileSync(UNIT, 'utf8'));
    const one = (key: string) => unit.get(key)?.at(-1);
    // npm start is `exec node dist/server/main.js`: the unit runs the same file, node as the main process.
    expect(PACKAGE.scripts.start).toBe('exec node dist/server/main.js');
    expect(one('ExecStart')).toBe(`/usr/bin/node ${path.posix.join(one('WorkingDirectory') ?? '', 'dist/server/main.js')}`);
    expect(one('User')).toBe('parley');
    expect(fs.readFileSync(path.join(path.dirname(UNIT), 'parley.sysusers'), 'utf8')).toMatch(/^u parley - /m);
    expect(one('EnvironmentFile')).toBe('/etc/parley/parley.env');
    expect(unit.get('Environment')).toContain('DATA_DIR=/var/lib/parley');
    expect(one('StateDirectory')).toBe('parley');
    expect(one('ReadWritePaths')).toBe('/var/lib/parley');
    expect(one('NoNewPrivileges')).toBe('yes');
    expect(one('ProtectSystem')).toBe('strict');
    expect(one('Restart')).toBe('on-failure');
    // Parley's drain takes at most 10 s: systemd waits longer before it kills.
    expect(Number(one('TimeoutStopSec'))).toBeGreaterThan(10);
    // Node's JIT needs writable executable memory: the one hardening that would stop it.
    expect(unit.has('MemoryDenyWriteExecute')).toBe(false);
  });
});
