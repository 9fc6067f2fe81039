/**
 * deploy/Containerfile, built and run for real. There is no Docker engine on this machine and no
 * image registry in reach, so the official Node image is stood in for by two images made here,
 * the way it is made: Debian bookworm (mmdebstrap, minbase) with this machine's Node copied in,
 * a slim one for the runtime and one with npm, Node's headers and a C++ toolchain for the build
 * (NODE_IMAGE and BUILD_IMAGE, the Containerfile's build arguments). buildah builds the image
 * from the repository with chroot isolation, then runs the image's own CMD (node itself, no shell
 * in between; chroot isolation has no PID namespace, so it is PID 1 only under an engine) as the
 * image's user with its environment, on this machine's network: /healthz answers,
 * the image's HEALTHCHECK passes, the process is not root, the SQLite database is written under
 * /data, and SIGTERM makes it exit 0 within 10 s. Everything it made is removed at the end.
 * docs/DEPLOY.md, "Container image", lists these very commands.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolsPresent } from './tools.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const TOOLS = ['/usr/bin/buildah', '/usr/bin/mmdebstrap'];
const MIRROR = 'http://deb.debian.org/debian';
const MINUTE = 60_000;

interface Result {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end; rejects with its output when it fails (unless `allowFailure`). */
function run(command: string, args: string[], options: { timeoutMs?: number; allowFailure?: boolean } = {}): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 5 * MINUTE);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const result = { code, signal, stdout, stderr };
      if (code === 0 || options.allowFailure) resolve(result);
      else reject(new Error(`${command} ${args.join(' ')} ended with ${code ?? signal}:\n${tail(stdout)}\n${tail(stderr)}`));
    });
  });
}

function tail(text: string, lines = 40): string {
  return text.split('\n').slice(-lines).join('\n');
}

const buildah = (args: string[], options?: { timeoutMs?: number; allowFailure?: boolean }) => run('buildah', args, options);

/**
 * A Debian bookworm image with this machine's Node: what the official node:20-bookworm(-slim)
 * image is, made without a registry. `extra` adds packages and hooks (the build's toolchain).
 */
async function nodeImage(name: string, include: string[], hooks: string[], env: string[]): Promise<void> {
  const container = (await buildah(['from', 'scratch'])).stdout.trim();
  try {
    const rootfs = (await buildah(['mount', container])).stdout.trim();
    await run(
      'mmdebstrap',
      [
        '--quiet',
        '--variant=minbase',
        `--include=${['ca-certificates', ...include].join(',')}`,
        // Documentation is not needed in an image, and unpacking it takes time.
        '--dpkgopt=path-exclude=/usr/share/doc/*',
        '--dpkgopt=path-exclude=/usr/share/man/*',
        '--dpkgopt=path-exclude=/usr/share/locale/*',
        '--customize-hook=cp -a /usr/bin/node "$1/usr/bin/node"',
        ...hooks.map((hook) => `--customize-hook=${hook}`),
        'bookworm',
        rootfs,
        MIRROR,
      ],
      { timeoutMs: 10 * MINUTE },
    );
    await buildah(['umount', container]);
    const config = ['config', '--env', 'PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', '--cmd', 'node'];
    for (const e of env) config.push('--env', e);
    await buildah([...config, container]);
    await buildah(['commit', '--quiet', '--rm', container, name]);
  } catch (err) {
    await buildah(['rm', container], { allowFailure: true });
    throw err;
  }
}

/** Ids of the images without a name (what a multi-stage build leaves of its stages). */
async function untaggedImages(): Promise<string[]> {
  const { stdout } = await buildah(['images', '--all', '--json'], { allowFailure: true });
  try {
    const images = JSON.parse(stdout || '[]') as Array<{ id: string; names?: string[] | null }>;
    return images.filter((i) => !i.names || i.names.length === 0).map((i) => i.id);
  } catch {
    return [];
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** Host pids of every descendant of `pid` (the container's processes, seen from here). */
function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid ...: comm may hold spaces and parentheses, so split after the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // The process ended while we read.
    }
  }
  const out: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift() as number) ?? []) {
      out.push(child);
      queue.push(child);
    }
  }
  return out;
}

function cmdline(pid: number): string[] {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return [];
  }
}

/** SIGKILL to a `buildah run` still running and to every process it started. */
function stopTree(child: ChildProcess): void {
  if (child.exitCode !== null || child.signalCode !== null) return;
  for (const pid of descendants(child.pid as number)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone already.
    }
  }
  child.kill('SIGKILL');
}

interface ImageConfig {
  User?: string;
  Env?: string[];
  Cmd?: string[];
  Entrypoint?: string[] | null;
  WorkingDir?: string;
  ExposedPorts?: Record<string, unknown>;
  Volumes?: Record<string, unknown>;
  StopSignal?: string;
}

describe.runIf(toolsPresent('test/deploy/container.test.ts', TOOLS))('the container image (deploy/Containerfile)', () => {
  const tag = `parley-test-${process.pid}`;
  const slimImage = `localhost/${tag}-node:slim`;
  const buildImage = `localhost/${tag}-node:build`;
  const image = `localhost/${tag}:latest`;
  const containers: string[] = [];
  let untaggedBefore = new Set<string>();
  let config: ImageConfig;
  let healthcheck: string[];
  let container: string;
  let port: number;
  let server: ChildProcess | undefined;
  const servers: ChildProcess[] = [];
  let serverExit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  let serverOutput = '';
  const started = Date.now();
  /** The server's process, seen from here: the image's CMD itself, no shell in between. */
  const serverPid = (): number => {
    const cmd = config.Cmd as string[];
    // argv[0] is the path buildah found on PATH (/usr/bin/node); the arguments are the CMD's.
    const pid = descendants(server?.pid as number).find((p) => {
      const argv = cmdline(p);
      return argv.length === cmd.length && path.basename(argv[0]) === cmd[0] && argv.slice(1).join(' ') === cmd.slice(1).join(' ');
    });
    if (pid === undefined) throw new Error(`no process runs ${(config.Cmd as string[]).join(' ')} in the container`);
    return pid;
  };
  const timings: string[] = [];
  const lap = (what: string) => timings.push(`${what}: ${Math.round((Date.now() - started) / 1000)} s`);

  beforeAll(async () => {
    untaggedBefore = new Set(await untaggedImages());
    // The two bases side by side: most of their time is downloading and unpacking packages.
    await Promise.all([
      nodeImage(slimImage, [], [], []),
      nodeImage(
        buildImage,
        ['python3', 'make', 'g++'],
        [
          'mkdir -p "$1/usr/lib/node_modules" && cp -a /usr/lib/node_modules/npm "$1/usr/lib/node_modules/"',
          'ln -s ../lib/node_modules/npm/bin/npm-cli.js "$1/usr/bin/npm" && ln -s ../lib/node_modules/npm/bin/npx-cli.js "$1/usr/bin/npx"',
          // Node's headers, for node-gyp (better-sqlite3 is compiled: GitHub, where its prebuilt binary is, is out of reach).
          'cp -a /usr/include/node "$1/usr/include/node"',
          // This machine reaches the npm registry through a TLS-inspecting proxy: its certificate authorities, as on the host.
          'for f in /usr/local/share/ca-certificates/*.crt; do [ -e "$f" ] && cp "$f" "$1/usr/local/share/ca-certificates/"; done; chroot "$1" update-ca-certificates',
        ],
        ['NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt', 'npm_config_nodedir=/usr', 'npm_config_update_notifier=false'],
      ),
    ]);
    lap('base images');
    await buildah(
      [
        'bud',
        '--isolation=chroot',
        // The OCI format has no HEALTHCHECK: buildah drops it there, and keeps it in Docker's format.
        '--format=docker',
        '--layers=false',
        '--build-arg',
        `NODE_IMAGE=${slimImage}`,
        '--build-arg',
        `BUILD_IMAGE=${buildImage}`,
        '--file',
        'deploy/Containerfile',
        '--tag',
        image,
        ROOT,
      ],
      { timeoutMs: 15 * MINUTE },
    );
    lap('image built');
    const inspected = JSON.parse((await buildah(['inspect', '--type', 'image', image])).stdout) as {
      OCIv1: { config: ImageConfig };
      Docker: { config: { Healthcheck?: { Test?: string[] } } };
    };
    config = inspected.OCIv1.config;
    healthcheck = inspected.Docker.config.Healthcheck?.Test ?? [];
    container = (await buildah(['from', '--name', `${tag}-run`, image])).stdout.trim();
    containers.push(container);
  }, 25 * MINUTE);

  afterAll(async () => {
    for (const started of servers) stopTree(started);
    for (const c of containers) await buildah(['rm', c], { allowFailure: true });
    for (const i of [image, slimImage, buildImage]) await buildah(['rmi', i], { allowFailure: true });
    // The build stage's image, left untagged by the multi-stage build: untagged and new since the start
    // (not `buildah rmi --prune`, which would take every untagged image of the machine).
    for (const id of await untaggedImages()) if (!untaggedBefore.has(id)) await buildah(['rmi', id], { allowFailure: true });
    lap('cleaned up');
    console.log(`container.test.ts timings: ${timings.join(', ')}`);
  }, 5 * MINUTE);

  it('is configured for a container: its user, port, volume, environment, health check, exec-form CMD', () => {
    expect(config.User).toBe('parley:parley');
    expect(Object.keys(config.ExposedPorts ?? {})).toEqual(['8080/tcp']);
    expect(Object.keys(config.Volumes ?? {})).toEqual(['/data']);
    expect(config.Env).toEqual(expect.arrayContaining(['HOST=0.0.0.0', 'PORT=8080', 'DATA_DIR=/data', 'NODE_ENV=production']));
    // Exec form, no shell in between: node itself is the container's first process and gets the signal.
    expect(config.Entrypoint ?? []).toEqual([]);
    expect(config.Cmd).toEqual(['node', 'dist/server/main.js']);
    expect(config.StopSignal).toBe('SIGTERM');
    expect(healthcheck[0]).toBe('CMD');
    expect(healthcheck.join(' ')).toContain('/healthz');
  });

  it("runs as the image's user, who is not root", async () => {
    const { stdout } = await buildah(['run', '--isolation=chroot', container, '--', 'id', '-u']);
    expect(Number(stdout.trim())).not.toBe(0);
    expect(Number.isInteger(Number(stdout.trim()))).toBe(true);
  });

  it('refuses to start bound to 0.0.0.0 without METRICS_TOKEN (or METRICS_PUBLIC=1), saying so', async () => {
    const result = await buildah(['run', '--isolation=chroot', '--env', `PORT=${await freePort()}`, container, '--', ...(config.Cmd as string[])], {
      allowFailure: true,
      timeoutMs: MINUTE,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('METRICS_TOKEN must be set when HOST is not a loopback address');
  });

  it(
    'starts: /healthz answers 200 and the HEALTHCHECK passes',
    async () => {
      // A retry (CI) starts afresh: the previous attempt's server goes first.
      for (const started of servers) stopTree(started);
      serverOutput = '';
      port = await freePort();
      // The image's own CMD, with the variables an operator gives (the port: this machine's network is shared).
      server = spawn(
        'buildah',
        [
          'run',
          '--isolation=chroot',
          '--env',
          `PORT=${port}`,
          '--env',
          'METRICS_TOKEN=container-test-metrics-token',
          container,
          '--',
          ...(config.Cmd as string[]),
        ],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      servers.push(server);
      server.stdout?.on('data', (d: Buffer) => (serverOutput += d.toString()));
      server.stderr?.on('data', (d: Buffer) => (serverOutput += d.toString()));
      serverExit = new Promise((resolve) => server?.on('exit', (code, signal) => resolve({ code, signal })));
      const deadline = Date.now() + 2 * MINUTE;
      let status = 0;
      while (Date.now() < deadline && server.exitCode === null) {
        status = await fetch(`http://127.0.0.1:${port}/healthz`).then(
          (r) => r.status,
          () => 0,
        );
        if (status === 200) break;
        await new Promise((r) => setTimeout(r, 250));
      }
      expect(status, `server output:\n${tail(serverOutput)}`).toBe(200);
      lap('healthz 200');
      // The HEALTHCHECK's command, run in the container the way the engine runs it.
      const check = await buildah(['run', '--isolation=chroot', '--env', `PORT=${port}`, container, '--', ...healthcheck.slice(1)], {
        allowFailure: true,
        timeoutMs: MINUTE,
      });
      expect(check.code, check.stderr).toBe(0);
    },
    3 * MINUTE,
  );

  it('serves as a non-root process', () => {
    const node = serverPid();
    const uids = /^Uid:\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)$/m.exec(fs.readFileSync(`/proc/${node}/status`, 'utf8'));
    expect(uids).not.toBeNull();
    for (const uid of (uids as RegExpExecArray).slice(1)) expect(Number(uid)).not.toBe(0);
  });

  it("writes its SQLite database under /data, a volume apart from the container's own files", async () => {
    const node = serverPid();
    // /data is a mount of its own in the process's view (the VOLUME: buildah run makes it one), ...
    const mounts = fs.readFileSync(`/proc/${node}/mountinfo`, 'utf8').split('\n');
    expect(mounts.some((line) => line.split(' ')[4] === '/data')).toBe(true);
    // ... where the database is, written by the process's user, not the build's root.
    const db = `/proc/${node}/root/data/parley.db`;
    expect(fs.existsSync(db), 'parley.db in /data').toBe(true);
    expect(fs.statSync(db).size).toBeGreaterThan(0);
    expect(fs.statSync(db).uid).not.toBe(0);
    // The container's own file system has none of it: not under /data, not where the application lives.
    const rootfs = (await buildah(['mount', container])).stdout.trim();
    try {
      expect(fs.readdirSync(path.join(rootfs, 'data'))).toEqual([]);
      expect(fs.existsSync(path.join(rootfs, 'app', 'data'))).toBe(false);
    } finally {
      await buildah(['umount', container], { allowFailure: true });
    }
  });

  it('exits 0 within 10 s of SIGTERM', async () => {
    const node = serverPid();
    const sent = Date.now();
    process.kill(node, 'SIGTERM');
    const exit = await Promise.race([serverExit, new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 12_000))]);
    const took = Date.now() - sent;
    expect(exit, `server output:\n${tail(serverOutput)}`).toEqual({ code: 0, signal: null });
    expect(took).toBeLessThan(10_000);
    expect(serverOutput).toContain('shutting down');
  }, 30_000);

  it('compose.yaml builds this Containerfile and puts both instances behind the shipped Caddyfile', () => {
    const compose = fs.readFileSync(path.join(ROOT, 'deploy/compose.yaml'), 'utf8');
    const dir = path.join(ROOT, 'deploy');
    const context = /^\s+context: (\S+)$/m.exec(compose)?.[1] ?? '';
    const dockerfile = /^\s+dockerfile: (\S+)$/m.exec(compose)?.[1] ?? '';
    expect(path.resolve(dir, context, dockerfile)).toBe(path.join(ROOT, 'deploy/Containerfile'));
    for (const [, mount] of compose.matchAll(/^\s+- (\.\/\S+?):/gm)) expect(fs.existsSync(path.resolve(dir, mount)), mount).toBe(true);
    const upstream = /PARLEY_UPSTREAM: (.+)$/m.exec(compose)?.[1].split(/\s+/) ?? [];
    expect(upstream.length).toBe(2);
    for (const address of upstream) expect(compose).toMatch(new RegExp(`^  ${address.split(':')[0]}: \\*parley$`, 'm'));
    expect(fs.readFileSync(path.join(ROOT, 'deploy/caddy/Caddyfile'), 'utf8')).toContain('{$PARLEY_UPSTREAM');
  });
});
