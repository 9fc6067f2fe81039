/**
 * deploy/nginx/parley.conf, run for real: Debian's nginx in front of the real
 * `npm start`, configured from the shipped file with only its ports and
 * certificate paths substituted (and the upstream's port), included into a
 * minimal nginx.conf that keeps every file of nginx's in a temporary folder.
 * Over https and wss only: an agent signs in and chats with a widget on a
 * page of another origin; Parley counts the client's address, not nginx's;
 * Parley's largest body goes through; plain http redirects to https.
 * docs/DEPLOY.md, "TLS reverse proxy: nginx".
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
  selfSignedCertificate,
  startParleyBehindProxy,
  toolsPresent,
  waitThroughProxy,
} from './proxyJourney.js';

const NGINX = '/usr/sbin/nginx';
const SHIPPED = path.resolve(import.meta.dirname, '../../deploy/nginx/parley.conf');

/** The shipped file with only what differs on this machine replaced; each replacement must match. */
export function substitute(shipped: string, at: { http: number; https: number; upstream: number; cert: string; key: string }): string {
  const swaps: Array<[RegExp, string]> = [
    [/listen 80;/g, `listen ${at.http};`],
    [/listen \[::\]:80;/g, `listen [::]:${at.http};`],
    [/listen 443 ssl http2;/g, `listen ${at.https} ssl http2;`],
    [/listen \[::\]:443 ssl http2;/g, `listen [::]:${at.https} ssl http2;`],
    [/server 127\.0\.0\.1:8080;/g, `server 127.0.0.1:${at.upstream};`],
    [/ssl_certificate {5}\/etc\/ssl\/certs\/parley\.crt;/g, `ssl_certificate     ${at.cert};`],
    [/ssl_certificate_key \/etc\/ssl\/private\/parley\.key;/g, `ssl_certificate_key ${at.key};`],
  ];
  let out = shipped;
  for (const [pattern, value] of swaps) {
    if (!pattern.test(out)) throw new Error(`deploy/nginx/parley.conf no longer has ${pattern}: update the test with the file`);
    out = out.replace(pattern, value);
  }
  return out;
}

describe.runIf(toolsPresent('test/deploy/nginx.test.ts', [NGINX, '/usr/bin/chromium']))('nginx in front of Parley (deploy/nginx/parley.conf)', () => {
  let dir: string;
  let parley: ServerProcess;
  let nginx: ChildProcess;
  let base: string;
  let plain: string;
  const nginxLog = () => ['error.log', 'access.log'].map((f) => fs.readFileSync(path.join(dir, f), 'utf8').split('\n').slice(-30).join('\n')).join('\n');

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-nginx-'));
    const [httpPort, httpsPort, parleyPort] = await ports(3);
    base = `https://127.0.0.1:${httpsPort}`;
    plain = `http://127.0.0.1:${httpPort}`;
    const { cert, key } = selfSignedCertificate(dir);
    fs.writeFileSync(
      path.join(dir, 'parley.conf'),
      substitute(fs.readFileSync(SHIPPED, 'utf8'), { http: httpPort, https: httpsPort, upstream: parleyPort, cert, key }),
    );
    // What /etc/nginx/nginx.conf gives the site on Debian, with every path in the folder.
    const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `    ${kind}_temp_path ${path.join(dir, kind)};`).join('\n');
    fs.writeFileSync(
      path.join(dir, 'nginx.conf'),
      `worker_processes 1;
pid ${path.join(dir, 'nginx.pid')};
error_log ${path.join(dir, 'error.log')} notice;
daemon off;
user root;
events { worker_connections 256; }
http {
    access_log ${path.join(dir, 'access.log')};
${temp}
    include ${path.join(dir, 'parley.conf')};
}
`,
    );
    const check = spawnSync(NGINX, ['-t', '-p', dir, '-c', path.join(dir, 'nginx.conf')], { encoding: 'utf8' });
    expect(check.status, check.stderr).toBe(0);
    parley = await startParleyBehindProxy(dir, parleyPort, base);
    nginx = spawn(NGINX, ['-p', dir, '-c', path.join(dir, 'nginx.conf')], { stdio: ['ignore', 'inherit', 'inherit'] });
    await waitThroughProxy(base, nginxLog);
  }, 60_000);

  afterAll(async () => {
    if (nginx && nginx.exitCode === null) {
      const exited = new Promise((resolve) => nginx.once('exit', resolve));
      nginx.kill('SIGQUIT');
      await exited;
    }
    await parley?.kill();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('redirects plain http to https and serves Parley over TLS', async () => {
    const redirect = await request(`${plain}/openapi.json`);
    expect(redirect.status).toBe(301);
    expect(redirect.headers.location).toBe('https://127.0.0.1/openapi.json');
    const openapi = await request(`${base}/openapi.json`);
    expect(openapi.status).toBe(200);
    expect(openapi.headers['content-type']).toMatch(/^application\/json/);
  });

  it('carries a chat between an agent and a widget on another origin over https and wss', { timeout: 90_000 }, async () => {
    const journey = await agentAndVisitorChat(base, 'nginx');
    await checkBodyLimits(base, journey);
  });

  it('counts failed sign-ins per client behind it, not per proxy', async () => {
    await checkClientAddresses(base);
    // nginx logged both clients by their own address (a line is written once the answer is out).
    const access = () => fs.readFileSync(path.join(dir, 'access.log'), 'utf8');
    await expect.poll(access).toMatch(/^127\.0\.0\.7 .*"POST \/api\/v1\/auth\/login HTTP\/1\.1" 429 /m);
    await expect.poll(access).toMatch(/^127\.0\.0\.8 .*"POST \/api\/v1\/auth\/login HTTP\/1\.1" 200 /m);
  });
});
