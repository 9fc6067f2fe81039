/**
 * A child process of the sockets benchmark that holds many idle WebSocket
 * clients (more than the default open-files limit lets one process hold, so
 * bench/sockets.ts starts it through `ulimit -n`). It reads one JSON line on
 * stdin — {urls: string[], count, concurrency} — opens `count` sockets
 * round-robin over the urls, from several loopback source addresses (so the
 * ephemeral ports of one address are not the limit), waits for each socket's
 * `ready` frame, prints one JSON line {opened, failed, ms}, then holds them
 * until stdin closes or it gets SIGTERM.
 * Usage: node --import tsx bench/lib/socketClients.ts
 */
import readline from 'node:readline';
import WebSocket from 'ws';
import { wsText } from '../../server/lib/wsText.js';

interface Job {
  urls: string[];
  count: number;
  concurrency: number;
}

const SOURCES = ['127.0.0.1', '127.0.0.2', '127.0.0.3', '127.0.0.4'];
const OPEN_TIMEOUT_MS = 20_000;
const held: WebSocket[] = [];

function openOne(url: string, n: number): Promise<boolean> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { localAddress: SOURCES[n % SOURCES.length], perMessageDeflate: false });
    const timer = setTimeout(() => done(false), OPEN_TIMEOUT_MS);
    const done = (ok: boolean): void => {
      clearTimeout(timer);
      ws.removeAllListeners('message');
      if (!ok) ws.terminate();
      resolve(ok);
    };
    ws.on('message', (raw) => {
      if (wsText(raw).includes('"ready"')) done(true);
    });
    ws.on('error', () => done(false));
    ws.on('close', () => done(false));
    held.push(ws);
  });
}

async function run(job: Job): Promise<void> {
  const started = performance.now();
  let next = 0;
  let opened = 0;
  let failed = 0;
  await Promise.all(
    Array.from({ length: job.concurrency }, async () => {
      while (next < job.count) {
        const n = next++;
        if (await openOne(job.urls[n % job.urls.length], n)) opened++;
        else failed++;
      }
    }),
  );
  process.stdout.write(`${JSON.stringify({ opened, failed, ms: performance.now() - started })}\n`);
}

const shutdown = (): void => {
  for (const ws of held) ws.terminate();
  process.exit(0);
};
process.on('SIGTERM', shutdown);
const lines = readline.createInterface({ input: process.stdin });
lines.once('line', (line) => void run(JSON.parse(line) as Job));
lines.on('close', shutdown);
