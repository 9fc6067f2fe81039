/**
 * deploy/compose.yaml, the reference multi-instance deployment. There is no
 * container engine on this machine (docs/DEPLOY.md, "How the test builds and
 * runs it here"), so `docker compose up` is not run; instead:
 *
 * - the file is read as compose reads it (YAML, its anchor, `${VAR:-default}`
 *   and `${VAR:?error}`) and its parts are checked against each other and
 *   against deploy/Containerfile: what each instance builds, where its data
 *   goes, which address TRUST_PROXY believes, what Caddy is sent to, what
 *   every `depends_on` waits for;
 * - its services are run here as the processes they are: Redis with the
 *   compose file's `command`, two Parley instances (`npm start`'s file) with
 *   the image's and the compose file's environment, started together on one
 *   PostgreSQL and that Redis, sharing one data directory (the `uploads`
 *   volume), and Debian's Caddy with the shipped Caddyfile and the compose
 *   file's variables in front of both. Only what a container engine would
 *   provide is substituted: the services' host names and ports become
 *   127.0.0.1 and free ports, Caddy's fixed network address (the one
 *   TRUST_PROXY names) becomes 127.0.0.1, from where Caddy connects here,
 *   `/data` a temporary folder, and the PostgreSQL URL the test server's
 *   (its own role and a schema of the test's). Every service's health check
 *   is run as compose would run it. Then: one instance made the first
 *   administrator and printed its password once; the administrator signs in
 *   over https through Caddy; the token works on both instances; failed
 *   sign-ins count each client, not Caddy; with one instance stopped
 *   (SIGTERM, exit 0 within the compose file's `stop_grace_period`) Caddy
 *   goes on answering from the other.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import type { LookupFunction } from 'node:net';
import pg from 'pg';
import YAML from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropPostgresSchema } from '../../server/db/database.js';
import { assertBuilt } from '../process/serverProcess.js';
import { startInstance, type Instance } from '../scale/cluster.js';
import { ports, toolsPresent } from './proxyJourney.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const DEPLOY = path.join(ROOT, 'deploy');
const CADDY = '/usr/bin/caddy';
const REDIS_SERVER = '/usr/bin/redis-server';
const REDIS_CLI = '/usr/bin/redis-cli';
const PG_ISREADY = '/usr/bin/pg_isready';
const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

interface Service {
  build?: { context: string; dockerfile: string };
  image?: string;
  command?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
  stop_grace_period?: string;
  networks?: Record<string, { ipv4_address?: string } | null> | string[];
  ports?: string[];
}

interface Compose {
  services: Record<string, Service>;
  networks: Record<string, { ipam: { config: Array<{ subnet: string }> } }>;
  volumes: Record<string, unknown>;
}

/** compose's variable interpolation: `${VAR}`, `${VAR:-default}`, `${VAR:?error}` (an error when unset or empty). */
function interpolate(value: string, env: Record<string, string>): string {
  return value.replace(/\$\{(\w+)(?::([-?])([^}]*))?\}/g, (_, name: string, op: string | undefined, arg: string | undefined) => {
    const set = env[name];
    if (set !== undefined && set !== '') return set;
    if (op === '?') throw new Error(`compose.yaml: ${name} is required: ${arg}`);
    return op === '-' ? (arg ?? '') : '';
  });
}

function environmentOf(service: Service, env: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(service.environment ?? {}).map(([k, v]) => [k, interpolate(String(v), env)]));
}

const compose = YAML.parse(fs.readFileSync(path.join(DEPLOY, 'compose.yaml'), 'utf8')) as Compose;
const containerfile = fs.readFileSync(path.join(DEPLOY, 'Containerfile'), 'utf8').replace(/\\\n/g, ' ');

/** The runtime stage's ENV (the last stage's, as the image has it). */
function imageEnv(): Record<string, string> {
  const runtime = containerfile.slice(containerfile.lastIndexOf('\nFROM '));
  const env: Record<string, string> = {};
  for (const [, line] of runtime.matchAll(/^ENV (.+)$/gm)) for (const [, k, v] of line.matchAll(/(\w+)=(\S+)/g)) env[k] = v;
  return env;
}

/** The image's HEALTHCHECK command (exec form). */
function imageHealthcheck(): string[] {
  const m = /^HEALTHCHECK .*?CMD (\[.+\])$/m.exec(containerfile);
  if (!m) throw new Error('deploy/Containerfile has no HEALTHCHECK CMD [...]');
  return JSON.parse(m[1]) as string[];
}

const parleyServices = Object.entries(compose.services).filter(([, s]) => s.build !== undefined);
const caddy = compose.services.caddy;
const caddyAddress = (caddy.networks as Record<string, { ipv4_address?: string }>).parley.ipv4_address ?? '';
const SECRETS = { POSTGRES_PASSWORD: 'compose-test-postgres', METRICS_TOKEN: 'compose-test-metrics-token' };

describe('deploy/compose.yaml, read as compose reads it', () => {
  it('builds both Parley instances from deploy/Containerfile, one image, their data on the shared volume at the image’s /data', () => {
    expect(parleyServices.map(([name]) => name)).toEqual(['parley-1', 'parley-2']);
    for (const [name, s] of parleyServices) {
      expect(path.resolve(DEPLOY, s.build!.context, s.build!.dockerfile), name).toBe(path.join(DEPLOY, 'Containerfile'));
      expect(s.image).toBe(parleyServices[0][1].image);
      expect(imageEnv().DATA_DIR).toBe('/data');
      expect(containerfile).toMatch(/^VOLUME \["\/data"\]$/m);
      expect(s.volumes).toEqual(['uploads:/data']);
      expect(Object.keys(compose.volumes)).toContain('uploads');
      // Parley drains within 10 s of SIGTERM: the engine must wait longer before it kills.
      expect(Number.parseInt(s.stop_grace_period ?? '10s', 10)).toBeGreaterThan(10);
    }
  });

  it('points each instance at the compose PostgreSQL and Redis, believing only Caddy’s address', () => {
    const env = environmentOf(parleyServices[0][1], SECRETS);
    const postgres = environmentOf(compose.services.postgres, SECRETS);
    const db = new URL(env.DATABASE_URL);
    expect([db.protocol, db.hostname, db.port, db.username, db.password, db.pathname]).toEqual([
      'postgres:',
      'postgres',
      '5432',
      postgres.POSTGRES_USER,
      postgres.POSTGRES_PASSWORD,
      `/${postgres.POSTGRES_DB}`,
    ]);
    expect(new URL(env.REDIS_URL).hostname).toBe('redis');
    expect(env.TRUST_PROXY).toBe(caddyAddress);
    const [net, bits] = compose.networks.parley.ipam.config[0].subnet.split('/');
    expect(bits).toBe('24');
    expect(caddyAddress.split('.').slice(0, 3)).toEqual(net.split('.').slice(0, 3));
    expect(env.PUBLIC_URL).toBe(`https://${environmentOf(caddy, SECRETS).PARLEY_SITE}`);
    // Bound to 0.0.0.0 (the image's HOST), Parley refuses to start with /metrics open.
    expect(imageEnv().HOST).toBe('0.0.0.0');
    expect(env.METRICS_TOKEN).toBe(SECRETS.METRICS_TOKEN);
    expect(() => environmentOf(parleyServices[0][1], {})).toThrow(/POSTGRES_PASSWORD is required/);
  });

  it('sends Caddy to both instances at the image’s port, with the shipped Caddyfile where the Caddy image reads it', () => {
    const upstream = environmentOf(caddy, SECRETS).PARLEY_UPSTREAM.split(/\s+/);
    expect(upstream).toEqual(parleyServices.map(([name]) => `${name}:${imageEnv().PORT}`));
    expect(caddy.volumes).toContain('./caddy/Caddyfile:/etc/caddy/Caddyfile:ro');
    for (const mount of caddy.volumes ?? []) if (mount.startsWith('./')) expect(fs.existsSync(path.resolve(DEPLOY, mount.split(':')[0])), mount).toBe(true);
    expect(fs.readFileSync(path.join(DEPLOY, 'caddy/Caddyfile'), 'utf8')).toContain('{$PARLEY_UPSTREAM');
    expect(environmentOf(caddy, SECRETS).PARLEY_TLS).toBe('internal');
  });

  it('waits only for services that have a health check (the instances: the image’s HEALTHCHECK)', () => {
    for (const [name, s] of Object.entries(compose.services)) {
      for (const [on, { condition }] of Object.entries(s.depends_on ?? {})) {
        expect(condition, `${name} → ${on}`).toBe('service_healthy');
        const target = compose.services[on];
        expect(target, `${name} depends on ${on}`).toBeDefined();
        if (target.build) expect(imageHealthcheck().join(' ')).toContain('/healthz');
        else expect(target.healthcheck?.test[0], `${on}'s healthcheck`).toBe('CMD');
      }
    }
  });
});

/** A request to Caddy's site by its name (no DNS here for chat.localhost: the name goes to 127.0.0.1). */
function site(
  base: string,
  pathname: string,
  opts: { method?: string; body?: unknown; token?: string; localAddress?: string } = {},
): Promise<{ status: number; body: string }> {
  const lookup: LookupFunction = (_host, options, cb) => {
    if (options.all) (cb as unknown as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [{ address: '127.0.0.1', family: 4 }]);
    else cb(null, '127.0.0.1', 4);
  };
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {};
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    const req = https.request(
      new URL(pathname, base),
      { method: opts.method ?? 'GET', headers, lookup, localAddress: opts.localAddress, rejectUnauthorized: false, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(opts.body === undefined ? undefined : JSON.stringify(opts.body));
  });
}

function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  return exited;
}

describe.runIf(toolsPresent('test/deploy/compose.test.ts', [CADDY, REDIS_SERVER, REDIS_CLI, PG_ISREADY]))(
  'deploy/compose.yaml’s services, run as processes here',
  () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-compose-'));
    const schema = `t_compose_${crypto.randomBytes(5).toString('hex')}`;
    let redis: ChildProcess | undefined;
    let caddyProcess: ChildProcess | undefined;
    let caddyOutput = '';
    let instances: Instance[] = [];
    let redisPort = 0;
    let adminPort = 0;
    let base = '';

    beforeAll(async () => {
      assertBuilt();
      const [httpPort, httpsPort, admin, redisAt] = await ports(4);
      redisPort = redisAt;
      adminPort = admin;
      // Redis as the compose file runs it (its `command`), on a port of this machine.
      const command = compose.services.redis.command ?? [];
      expect(command[0]).toBe('redis-server');
      redis = spawn(REDIS_SERVER, [...command.slice(1), '--port', String(redisPort), '--bind', '127.0.0.1', '--dir', dir], { stdio: 'ignore' });
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      await client.query(`create schema "${schema}"`).finally(() => client.end());

      // The instances: the image's environment, then the compose file's, then what an engine provides.
      const data = path.join(dir, 'uploads-volume');
      fs.mkdirSync(data);
      const given = { ...imageEnv(), ...environmentOf(parleyServices[0][1], SECRETS) };
      expect([given.REDIS_URL, given.TRUST_PROXY, given.DATA_DIR]).toEqual(['redis://redis:6379', caddyAddress, '/data']);
      const env = {
        ...given,
        HOST: '127.0.0.1',
        DATABASE_URL: PG_URL,
        DATABASE_SCHEMA: schema,
        REDIS_URL: `redis://127.0.0.1:${redisPort}`,
        TRUST_PROXY: '127.0.0.1',
        DATA_DIR: data,
        LOG_LEVEL: 'warn',
      };
      for (let i = 0; i < 50 && spawnSync(REDIS_CLI, ['-p', String(redisPort), 'ping'], { encoding: 'utf8' }).stdout.trim() !== 'PONG'; i++)
        await new Promise((r) => setTimeout(r, 100));
      // Started together, as `docker compose up` starts them once PostgreSQL and Redis are healthy.
      instances = await Promise.all(parleyServices.map(([name]) => startInstance(name, env, { readyMs: 90_000 })));

      // Caddy: the shipped Caddyfile, the compose file's variables; the test's global options move its ports,
      // storage and admin endpoint (the compose health check asks that) off the machine's.
      const caddyEnv = environmentOf(caddy, SECRETS);
      const upstream = caddyEnv.PARLEY_UPSTREAM.split(/\s+/).map((address) => {
        const at = parleyServices.findIndex(([name]) => address === `${name}:${imageEnv().PORT}`);
        return new URL(instances[at].base).host;
      });
      fs.writeFileSync(
        path.join(dir, 'Caddyfile'),
        `{\n\tadmin 127.0.0.1:${adminPort}\n\thttp_port ${httpPort}\n\thttps_port ${httpsPort}\n\tskip_install_trust\n\tstorage file_system ${path.join(dir, 'caddy-data')}\n}\n\nimport ${path.join(DEPLOY, 'caddy/Caddyfile')}\n`,
      );
      base = `https://${caddyEnv.PARLEY_SITE}:${httpsPort}`;
      caddyProcess = spawn(CADDY, ['run', '--adapter', 'caddyfile', '--config', path.join(dir, 'Caddyfile')], {
        env: {
          ...process.env,
          HOME: dir,
          XDG_DATA_HOME: path.join(dir, 'xdg-data'),
          XDG_CONFIG_HOME: path.join(dir, 'xdg-config'),
          ...caddyEnv,
          PARLEY_UPSTREAM: upstream.join(' '),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      caddyProcess.stdout?.on('data', (d: Buffer) => (caddyOutput += d.toString()));
      caddyProcess.stderr?.on('data', (d: Buffer) => (caddyOutput += d.toString()));
      const deadline = Date.now() + 30_000;
      let last: string;
      for (;;) {
        try {
          const res = await site(base, '/healthz');
          if (res.status === 200) break;
          last = `${res.status}`;
        } catch (err) {
          last = String(err);
        }
        if (Date.now() > deadline) throw new Error(`Caddy did not serve /healthz: ${last}\n${caddyOutput.slice(-3000)}`);
        await new Promise((r) => setTimeout(r, 250));
      }
    }, 150_000);

    afterAll(async () => {
      await stop(caddyProcess);
      for (const instance of instances) await instance.kill();
      await stop(redis);
      await dropPostgresSchema(PG_URL, schema).catch(() => undefined);
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it('passes every service’s health check, run as compose runs it', () => {
      const redisCheck = compose.services.redis.healthcheck!.test;
      expect(redisCheck).toEqual(['CMD', 'redis-cli', 'ping']);
      const pong = spawnSync(REDIS_CLI, ['-p', String(redisPort), ...redisCheck.slice(2)], { encoding: 'utf8' });
      expect(pong.stdout.trim()).toBe('PONG');
      // Nothing durable in Redis: what the compose file's command says.
      const config = spawnSync(REDIS_CLI, ['-p', String(redisPort), 'config', 'get', '*'], { encoding: 'utf8' }).stdout.split('\n');
      expect(config[config.indexOf('save') + 1]).toBe('');
      expect(config[config.indexOf('appendonly') + 1]).toBe('no');

      const pgCheck = compose.services.postgres.healthcheck!.test;
      expect(pgCheck.slice(0, 2)).toEqual(['CMD', 'pg_isready']);
      const pgUrl = new URL(PG_URL);
      const ready = spawnSync(PG_ISREADY, [...pgCheck.slice(2), '-h', pgUrl.hostname, '-p', pgUrl.port || '5432'], { encoding: 'utf8' });
      expect(ready.status, ready.stdout + ready.stderr).toBe(0);

      const [command, ...args] = imageHealthcheck();
      expect(command).toBe('node');
      for (const instance of instances) {
        const check = spawnSync(process.execPath, args, {
          encoding: 'utf8',
          env: { PATH: process.env.PATH, PORT: new URL(instance.base).port },
          timeout: 10_000,
        });
        expect(check.status, `${instance.name}: ${check.stderr}`).toBe(0);
      }

      const caddyCheck = caddy.healthcheck!.test;
      expect(caddyCheck.slice(0, 2)).toEqual(['CMD', 'wget']);
      const wget = spawnSync(
        caddyCheck[1],
        caddyCheck.slice(2).map((a) => a.replace('127.0.0.1:2019', `127.0.0.1:${adminPort}`)),
        { encoding: 'utf8', timeout: 10_000 },
      );
      expect(wget.status, wget.stderr).toBe(0);
    });

    it('makes the first administrator once, prints its password once, and serves it over https through Caddy to both instances', async () => {
      const printed = instances.map((i) => /Administrator account created:\n\s+e-mail:\s+(\S+)\n\s+password:\s+(\S+)/.exec(i.output()));
      expect(printed.filter(Boolean)).toHaveLength(1);
      const [, email, password] = printed.find(Boolean)!;
      const login = await site(base, '/api/v1/auth/login', { method: 'POST', body: { email, password } });
      expect(login.status, login.body).toBe(200);
      const token = (JSON.parse(login.body) as { token: string }).token;
      // One deployment: what one instance issued, the other accepts (the generated password's session: first run first).
      for (const instance of instances) {
        const me = await fetch(`${instance.base}/api/v1/me/first-run`, { headers: { authorization: `Bearer ${token}` } });
        expect(me.status, instance.name).toBe(200);
        expect(((await me.json()) as { required: boolean }).required).toBe(true);
      }
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      try {
        const { rows } = await client.query<{ n: string }>(`select count(*) as n from "${schema}".agents`);
        expect(Number(rows[0].n)).toBe(1);
      } finally {
        await client.end();
      }
      // Sign-ins counted per client behind Caddy (TRUST_PROXY names Caddy's address), not per Caddy.
      const signIn = (from: string, pw: string) => site(base, '/api/v1/auth/login', { method: 'POST', body: { email, password: pw }, localAddress: from });
      for (let i = 0; i < 5; i++) expect((await signIn('127.0.0.7', 'wrong-password')).status).toBe(401);
      expect((await signIn('127.0.0.7', password)).status).toBe(429);
      expect((await signIn('127.0.0.8', password)).status).toBe(200);
    });

    it('goes on answering through Caddy while one instance is stopped (SIGTERM: exit 0 within the grace period)', async () => {
      const [first] = instances;
      const sent = Date.now();
      first.signal('SIGTERM');
      const exit = await first.exited;
      expect(exit).toEqual({ code: 0, signal: null });
      expect(Date.now() - sent).toBeLessThan(Number.parseInt(parleyServices[0][1].stop_grace_period ?? '10s', 10) * 1000);
      const answers: number[] = [];
      for (let i = 0; i < 20; i++) answers.push((await site(base, '/healthz')).status);
      expect(
        answers.every((s) => s === 200),
        answers.join(' '),
      ).toBe(true);
    }, 60_000);
  },
);
