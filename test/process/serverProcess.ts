/**
 * Runs the real `npm start` as a child in its own process group, the way an
 * operator or a supervisor would, for the process-level tests: wait for
 * /healthz, read its output, signal the group, wait for the exit.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The process tests run the compiled server: fail early when dist/ is missing, warn when it is older than server/. */
export function assertBuilt(): void {
  const main = path.join(repoRoot, 'dist/server/main.js');
  if (!fs.existsSync(main)) throw new Error('dist/server/main.js is missing: run `npm run build` first (npm test does it).');
  const builtAt = fs.statSync(main).mtimeMs;
  const newest = newestSource(path.join(repoRoot, 'server'));
  if (newest.mtimeMs > builtAt + 1000) {
    // A warning, not a failure: in a tree being edited the sources move all the time.
    console.warn(
      `WARNING: dist/ is older than ${path.relative(repoRoot, newest.file)}; the process tests run the old build. Run \`npm run build\` (npm test does it).`,
    );
  }
}

function newestSource(dir: string): { file: string; mtimeMs: number } {
  let best = { file: dir, mtimeMs: 0 };
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    const candidate = entry.isDirectory()
      ? newestSource(full)
      : entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')
        ? { file: full, mtimeMs: fs.statSync(full).mtimeMs }
        : null;
    if (candidate && candidate.mtimeMs > best.mtimeMs) best = candidate;
  }
  return best;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ServerProcess {
  readonly child: ChildProcess;
  readonly baseUrl: string;
  /** Everything the process printed on stdout so far. */
  stdout(): string;
  stderr(): string;
  /** Resolves once stdout matches (checked on every chunk). */
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Polls GET /healthz until it answers 200 {"status":"ok"}. */
  waitReady(timeoutMs?: number): Promise<void>;
  /** Sends a signal to the whole process group (npm and node); a group already gone is fine. */
  signalGroup(signal: NodeJS.Signals): void;
  readonly exited: Promise<Exit>;
  /** SIGKILL to the group if it still runs (test cleanup). */
  kill(): Promise<void>;
}

const running = new Set<ServerProcess>();

/** Starts `npm start` with exactly the given environment (plus PATH and HOME). */
export function startServer(env: Record<string, string>): ServerProcess {
  const port = env.PORT;
  if (!port) throw new Error('startServer needs PORT');
  const child = spawn('npm', ['start'], {
    cwd: repoRoot,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/root', ...env },
  });
  let out = '';
  let err = '';
  const waiters = new Set<() => void>();
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
    for (const w of waiters) w();
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    err += chunk;
  });
  let done = false;
  const exited = new Promise<Exit>((resolve) => {
    child.on('exit', (code, signal) => {
      done = true;
      for (const w of waiters) w();
      resolve({ code, signal });
    });
  });
  const baseUrl = `http://127.0.0.1:${port}`;

  const proc: ServerProcess = {
    child,
    baseUrl,
    exited,
    stdout: () => out,
    stderr: () => err,
    waitForOutput: (pattern, timeoutMs = 15_000) =>
      new Promise((resolve, reject) => {
        const check = (): void => {
          const m = out.match(pattern);
          if (m || done) {
            waiters.delete(check);
            clearTimeout(timer);
            if (m) resolve(m);
            else reject(new Error(`process exited before printing ${pattern}\nstdout:\n${out}\nstderr:\n${err}`));
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no ${pattern} on stdout within ${timeoutMs} ms\nstdout:\n${out}\nstderr:\n${err}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
    waitReady: async (timeoutMs = 30_000) => {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        if (done) throw new Error(`the server exited before it was ready\nstdout:\n${out}\nstderr:\n${err}`);
        try {
          const res = await fetch(`${baseUrl}/healthz`);
          const body = await res.text();
          if (res.status === 200 && body === '{"status":"ok"}') return;
        } catch {
          // not listening yet
        }
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`/healthz did not answer 200 within ${timeoutMs} ms\nstdout:\n${out}\nstderr:\n${err}`);
    },
    signalGroup: (signal) => {
      if (child.pid === undefined) throw new Error('no pid');
      try {
        process.kill(-child.pid, signal);
      } catch (e) {
        // The group may be gone already (a fast exit after the first signal).
        if ((e as NodeJS.ErrnoException).code !== 'ESRCH') throw e;
      }
    },
    kill: async () => {
      running.delete(proc);
      if (done || child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
      await exited;
    },
  };
  running.add(proc);
  void exited.then(() => running.delete(proc));
  return proc;
}

/** Kills whatever a failed test left running. */
export async function killAll(): Promise<void> {
  await Promise.all([...running].map((p) => p.kill()));
}

/** Names (comm) of the processes in a process group, from ps. */
export function processGroupCommands(pgid: number): string[] {
  const ps = spawnSync('ps', ['-eo', 'pgid=,comm='], { encoding: 'utf8' });
  return ps.stdout
    .split('\n')
    .map((line) => line.trim().split(/\s+/, 2))
    .filter(([group]) => Number(group) === pgid)
    .map(([, comm]) => comm ?? '');
}
