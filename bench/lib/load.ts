/**
 * A small HTTP load generator over keep-alive sockets: closed loop (N requests
 * in flight, as fast as the server answers) or open loop (a fixed rate,
 * whatever the answers). Bounded in count and time; loopback targets only.
 */
import http from 'node:http';

export interface LoadResult {
  sent: number;
  ok: number;
  errors: number;
  seconds: number;
  /** Response latencies in ms, sorted. */
  latencies: number[];
}

export type BodyFn = (n: number) => string;

/** One POST of a JSON body; resolves with the status (0 when the request failed). */
export function post(agent: http.Agent, url: URL, body: string): Promise<number> {
  return new Promise((resolve) => {
    const req = http.request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', () => resolve(0));
    req.end(body);
  });
}

/** `concurrency` requests in flight for `seconds`, or until `count` requests were sent when given. */
export async function closedLoop(target: string, body: BodyFn, opts: { concurrency: number; seconds: number; count?: number }): Promise<LoadResult> {
  const url = new URL(target);
  const agent = new http.Agent({ keepAlive: true, maxSockets: opts.concurrency });
  const latencies: number[] = [];
  let sent = 0;
  let ok = 0;
  let errors = 0;
  const start = performance.now();
  const until = start + opts.seconds * 1000;
  await Promise.all(
    Array.from({ length: opts.concurrency }, async () => {
      while (performance.now() < until && sent < (opts.count ?? Infinity)) {
        const n = sent++;
        const t0 = performance.now();
        const status = await post(agent, url, body(n));
        latencies.push(performance.now() - t0);
        if (status === 200) ok++;
        else errors++;
      }
    }),
  );
  agent.destroy();
  return { sent, ok, errors, seconds: (performance.now() - start) / 1000, latencies: latencies.sort((a, b) => a - b) };
}

export async function openLoop(
  target: string,
  body: BodyFn,
  opts: { rate: number; seconds: number; onSend?: (n: number, at: number) => void },
): Promise<LoadResult> {
  const url = new URL(target);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const latencies: number[] = [];
  const pending: Promise<void>[] = [];
  let ok = 0;
  let errors = 0;
  const total = Math.round(opts.rate * opts.seconds);
  const start = performance.now();
  for (let n = 0; n < total; n++) {
    const due = start + (n * 1000) / opts.rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    const t0 = performance.now();
    opts.onSend?.(n, t0);
    pending.push(
      post(agent, url, body(n)).then((status) => {
        latencies.push(performance.now() - t0);
        if (status === 200) ok++;
        else errors++;
      }),
    );
  }
  await Promise.all(pending);
  agent.destroy();
  return { sent: total, ok, errors, seconds: (performance.now() - start) / 1000, latencies: latencies.sort((a, b) => a - b) };
}
