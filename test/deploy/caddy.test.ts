/**
 * deploy/caddy/Caddyfile, run for real: Debian's Caddy in front of the real
 * `npm start`, the shipped file imported unchanged by a Caddyfile of the
 * test's that only moves Caddy's ports, storage and admin endpoint off the
 * machine's; the site, the upstream and `tls internal` come through the
 * shipped file's environment variables (PARLEY_SITE, PARLEY_UPSTREAM,
 * PARLEY_TLS). Over https and wss only: an agent signs in and chats with a
 * widget on a page of another origin; Parley counts the client's address,
 * not Caddy's; Parley's largest body goes through. docs/DEPLOY.md, "TLS
 * reverse proxy: Caddy".
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerProcess } from '../process/serverProcess.js';
import {
  agentAndVisitorChat,
  checkBodyLimits,
  checkClientAddresses,
  ports,
  request,
  startParleyBehindProxy,
  toolsPresent,
  waitThroughProxy,
} from './proxyJourney.js';

const CADDY = '/usr/bin/caddy';
const SHIPPED = path.resolve(import.meta.dirname, '../../deploy/caddy/Caddyfile');

describe.runIf(toolsPresent('test/deploy/caddy.test.ts', [CADDY, '/usr/bin/chromium']))('Caddy in front of Parley (deploy/caddy/Caddyfile)', () => {
  let dir: string;
  let parley: ServerProcess;
  let caddy: ChildProcess;
  let base: string;
  let plain: string;
  let output = '';

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-caddy-'));
    const [httpPort, httpsPort, parleyPort] = await ports(3);
    base = `https://127.0.0.1:${httpsPort}`;
    plain = `http://127.0.0.1:${httpPort}`;
    fs.writeFileSync(
      path.join(dir, 'Caddyfile'),
      `{
	admin off
	http_port ${httpPort}
	https_port ${httpsPort}
	skip_install_trust
	storage file_system ${path.join(dir, 'storage')}
}

import ${SHIPPED}
`,
    );
    const env = {
      ...process.env,
      HOME: dir,
      XDG_DATA_HOME: path.join(dir, 'data'),
      XDG_CONFIG_HOME: path.join(dir, 'config'),
      PARLEY_SITE: '127.0.0.1',
      PARLEY_UPSTREAM: `127.0.0.1:${parleyPort}`,
      PARLEY_TLS: 'internal',
    };
    const check = spawnSync(CADDY, ['validate', '--adapter', 'caddyfile', '--config', path.join(dir, 'Caddyfile')], { encoding: 'utf8', env });
    expect(check.status, check.stderr).toBe(0);
    parley = await startParleyBehindProxy(dir, parleyPort, base);
    caddy = spawn(CADDY, ['run', '--adapter', 'caddyfile', '--config', path.join(dir, 'Caddyfile')], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    caddy.stdout?.on('data', (d: Buffer) => (output += d.toString()));
    caddy.stderr?.on('data', (d: Buffer) => (output += d.toString()));
    await waitThroughProxy(base, () => output.split('\n').slice(-30).join('\n'));
  }, 60_000);

  afterAll(async () => {
    if (caddy && caddy.exitCode === null) {
      const exited = new Promise((resolve) => caddy.once('exit', resolve));
      caddy.kill('SIGTERM');
      await exited;
    }
    await parley?.kill();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('redirects plain http to https and serves Parley over TLS', async () => {
    const redirect = await request(`${plain}/openapi.json`);
    expect(redirect.status).toBe(308);
    // To the same host and path over https (Caddy 2.6 names no port: 443 in production).
    const to = new URL(redirect.headers.location ?? '');
    expect([to.protocol, to.hostname, to.pathname]).toEqual(['https:', '127.0.0.1', '/openapi.json']);
    const openapi = await request(`${base}/openapi.json`);
    expect(openapi.status).toBe(200);
    expect(openapi.headers['content-type']).toMatch(/^application\/json/);
  });

  it('carries a chat between an agent and a widget on another origin over https and wss', { timeout: 90_000 }, async () => {
    const journey = await agentAndVisitorChat(base, 'caddy');
    await checkBodyLimits(base, journey);
  });

  it('counts failed sign-ins per client behind it, not per proxy', async () => {
    await checkClientAddresses(base);
  });
});
