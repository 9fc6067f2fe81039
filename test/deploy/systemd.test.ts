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
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config/config.js';
import { toolsPresent } from './proxyJourney.js';

const ANALYZE = '/usr/bin/systemd-analyze';
const SYSUSERS = '/usr/bin/systemd-sysusers';
const DEPLOY = path.resolve(import.meta.dirname, '../../deploy/systemd');
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

describe.runIf(toolsPresent('test/deploy/systemd.test.ts', [ANALYZE, SYSUSERS]))('systemd unit (deploy/systemd/parley.service)', () => {
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

  it("installs as docs/DEPLOY.md says, into a root of the test's: the user, the environment file Parley accepts, the unit", () => {
    // docs/DEPLOY.md, "systemd service", from zero: each install step, with the paths under `root`.
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-systemd-'));
    const at = (p: string) => path.join(root, p);
    try {
      fs.mkdirSync(at('etc/sysusers.d'), { recursive: true });
      fs.copyFileSync(path.join(DEPLOY, 'parley.sysusers'), at('etc/sysusers.d/parley.conf'));
      const sysusers = spawnSync(SYSUSERS, [`--root=${root}`], { encoding: 'utf8' });
      expect(sysusers.status, sysusers.stderr).toBe(0);
      const unit = settings(fs.readFileSync(UNIT, 'utf8'));
      const one = (key: string) => unit.get(key)?.at(-1) ?? '';
      // The unit's user and group exist now, the user's home its state directory, no login.
      const user = fs
        .readFileSync(at('etc/passwd'), 'utf8')
        .split('\n')
        .find((l) => l.startsWith(`${one('User')}:`))
        ?.split(':');
      expect(user?.slice(5)).toEqual([`/var/lib/${one('StateDirectory')}`, '/usr/sbin/nologin']);
      expect(fs.readFileSync(at('etc/group'), 'utf8')).toMatch(new RegExp(`^${one('Group')}:`, 'm'));
      for (const args of [
        ['-d', '-m', '700', at('etc/parley')],
        ['-m', '600', path.join(DEPLOY, 'parley.env'), at(one('EnvironmentFile'))],
        ['-D', '-m', '644', UNIT, at('etc/systemd/system/parley.service')],
      ]) {
        const install = spawnSync('install', args, { encoding: 'utf8' });
        expect(install.status, install.stderr).toBe(0);
      }
      expect(fs.statSync(at(one('EnvironmentFile'))).mode & 0o777).toBe(0o600);
      // The example environment file, with the unit's own Environment= lines, is a configuration Parley starts with.
      const env: Record<string, string> = {};
      for (const line of fs.readFileSync(at(one('EnvironmentFile')), 'utf8').split('\n')) {
        const m = /^([A-Z_]+)=(.*)$/.exec(line.trim());
        if (m) env[m[1]] = m[2];
      }
      for (const e of unit.get('Environment') ?? []) env[e.slice(0, e.indexOf('='))] = e.slice(e.indexOf('=') + 1);
      const config = loadConfig(env);
      expect([config.host, config.port, config.publicUrl, config.dataDir]).toEqual(['127.0.0.1', 8080, 'https://chat.example.com', '/var/lib/parley']);
      expect(fs.readFileSync(at('etc/systemd/system/parley.service'), 'utf8')).toBe(fs.readFileSync(UNIT, 'utf8'));
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
