/**
 * One HTTP attempt of an outgoing request, with node:http(s): JSON body with
 * Content-Length or chunked, the signature headers, one timeout covering DNS,
 * connect and the whole response, no redirects followed, at most 64 KiB of the
 * answer read (then the connection is closed), the answer parsed as JSON
 * whatever its Content-Type, depth-limited (lib/untrustedJson.ts): a 2xx
 * answer nested deeper than that is a failure `answer` (not understood).
 * Never throws, and nothing the receiver sends can throw in an event
 * handler (which would end the process): every failure is a result.
 *
 * Connections are kept alive and reused, pooled by host, port and the very
 * addresses the SSRF guard validated for this attempt (PinnedHttpAgent): a
 * pooled socket only serves a request whose host name resolved, and was
 * checked, to the same addresses it was opened to. A request on a reused
 * socket that the receiver had closed (the keep-alive race: nothing of an
 * answer arrived) is sent once more on a fresh connection, same bytes, same
 * webhook-id (the receiver's idempotency key), within the same timeout.
 */
import http from 'node:http';
import https from 'node:https';
import type { Duplex } from 'node:stream';
import type { Socket } from 'node:net';
import { AppError } from '../errors/AppError.js';
import { stripNul } from '../lib/stripNul.js';
import { JsonTooDeepError, parseUntrustedJson } from '../lib/untrustedJson.js';
import { pinnedLookup, resolveTarget, type Target } from './ssrf.js';

export const MAX_RESPONSE_BYTES = 64 * 1024;
export const EXCERPT_CHARS = 2000;
export const USER_AGENT = 'Parley-Webhooks/1';

export interface SendRequest {
  url: string;
  /** JSON text (sent as UTF-8), or bytes sent as they are (an encrypted Web Push payload: server/push/). */
  body: string | Uint8Array;
  /** Extra headers (the Standard Webhooks signature). */
  headers: Record<string, string>;
  chunked: boolean;
  timeoutMs: number;
  allowPrivate: boolean;
  /** Abandons the attempt (shutdown): the result is `aborted`, to be released rather than counted. */
  signal?: AbortSignal;
}

/**
 * Why an attempt failed: target refused by the SSRF guard, no answer in time, network error, a non-2xx status,
 * a 2xx answer that could not be understood (JSON nested too deep), abandoned, or refused for good by the
 * receiver (a mail server's 5xx: server/mail/send.ts).
 */
export type FailureKind = 'blocked' | 'timeout' | 'network' | 'status' | 'answer' | 'aborted' | 'rejected';

export interface SendResult {
  ok: boolean;
  statusCode?: number;
  /** The answer parsed as JSON; undefined when it is not JSON. */
  body?: unknown;
  /** The start of the answer's text, for the delivery log. */
  excerpt: string;
  error?: string;
  failure?: FailureKind;
  /** The answer's `Retry-After` (a 429 or 503), in ms from now; a kind whose policy says so waits at least that long (capped). */
  retryAfterMs?: number;
}

/** `Retry-After` as ms from `now`: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now: number = Date.now()): number | undefined {
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!text) return undefined;
  if (/^\d{1,10}$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** An idle pooled socket is closed after this long (sooner when the receiver's `Keep-Alive: timeout=` hint, less 1 s, is shorter). */
export const IDLE_SOCKET_MS = 4000;
/** Idle sockets kept per destination (host, port, validated addresses) and in all; more are closed at once. */
export const MAX_IDLE_PER_TARGET = 32;
export const MAX_IDLE_SOCKETS = 128;

/** The request option carrying the validated addresses into the pool key (absent when not pinned). */
const PIN_OPTION = 'parleyPinnedAddresses';

type PinnedOptions = http.ClientRequestArgs & { [PIN_OPTION]?: string };

/** The pool key of validated addresses: order-independent, one string. */
function pinKey(addresses: Target['addresses']): string | undefined {
  return addresses
    ? addresses
        .map((a) => `${a.family}/${a.address}`)
        .sort()
        .join(',')
    : undefined;
}

function idleCount(agent: http.Agent): number {
  let n = 0;
  for (const list of Object.values(agent.freeSockets)) for (const socket of list ?? []) if (!socket.destroyed) n++;
  return n;
}

/**
 * Node's keep-alive pool names a connection by host and port only; these
 * agents add the validated addresses, so a socket opened through one pinned
 * lookup is never handed to a request whose host resolved elsewhere (the pin
 * of a new socket is the lookup of the request that opens it, with the same
 * key). Idle sockets are unref'd (they never hold the process), bounded, and
 * closed after IDLE_SOCKET_MS.
 */
class PinnedHttpAgent extends http.Agent {
  override getName(options?: http.ClientRequestArgs): string {
    return withPin(super.getName(options), options);
  }
  override keepSocketAlive(socket: Duplex): boolean {
    return roomFor(this) && (super.keepSocketAlive(socket) as unknown as boolean);
  }
}

class PinnedHttpsAgent extends https.Agent {
  override getName(options?: https.RequestOptions): string {
    return withPin(super.getName(options), options);
  }
  override keepSocketAlive(socket: Duplex): boolean {
    return roomFor(this) && (super.keepSocketAlive(socket) as unknown as boolean);
  }
}

/** Node's pool name of a connection, with the validated addresses when the request is pinned. */
function withPin(name: string, options: PinnedOptions | undefined): string {
  const pin = options?.[PIN_OPTION];
  return pin === undefined ? name : `${name}|pin=${pin}`;
}

/** Whether one more idle socket may be kept (MAX_IDLE_SOCKETS in all). */
function roomFor(agent: http.Agent): boolean {
  return idleCount(agent) < MAX_IDLE_SOCKETS;
}

const poolOptions = { keepAlive: true, maxFreeSockets: MAX_IDLE_PER_TARGET, timeout: IDLE_SOCKET_MS, scheduling: 'lifo' } as const;
const agents = { http: new PinnedHttpAgent(poolOptions), https: new PinnedHttpsAgent(poolOptions) };

/** Closes every idle pooled connection (the deliverer's stop; tests). Connections in use close when their attempt ends. */
export function closeIdleConnections(): void {
  for (const agent of [agents.http, agents.https]) {
    for (const list of Object.values(agent.freeSockets)) for (const socket of [...(list ?? [])]) socket.destroy();
  }
}

/** Idle pooled connections now (tests). */
export function idleConnections(): number {
  return idleCount(agents.http) + idleCount(agents.https);
}

const NETWORK_PHRASES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host not found (DNS lookup failed)',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connection timed out',
  EPIPE: 'connection closed while sending',
};

function networkError(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  const phrase = e?.code ? NETWORK_PHRASES[e.code] : undefined;
  const detail = e?.message ?? String(err);
  return phrase ? `${phrase} (${detail})` : detail;
}

/** The answer as JSON (undefined when it is not JSON), or why it cannot be understood (nested too deep). */
export function parseAnswer(text: string): { body: unknown; problem?: string } {
  if (text.trim() === '') return { body: undefined };
  try {
    return { body: parseUntrustedJson(text) };
  } catch (err) {
    if (err instanceof JsonTooDeepError) return { body: undefined, problem: `its JSON is nested deeper than ${err.limit} levels` };
    return { body: undefined };
  }
}

/** The result of a complete answer: status, parsed body, excerpt. */
export function judgeAnswer(status: number, raw: string, location: string | undefined, retryAfter?: string | string[]): SendResult {
  // NUL characters dropped (raw or escaped in JSON): PostgreSQL cannot store them, and the
  // attempt (its excerpt, an answer's fields) must always be recordable.
  const text = stripNul(raw);
  const answer = parseAnswer(text);
  const base = { statusCode: status, body: stripNul(answer.body), excerpt: text.slice(0, EXCERPT_CHARS) };
  if (status >= 200 && status < 300) {
    if (answer.problem) return { ok: false, ...base, error: `answer not understood: ${answer.problem}`, failure: 'answer' };
    return { ok: true, ...base };
  }
  const error = status >= 300 && status < 400 ? `HTTP ${status}: redirect${location ? ` to ${location}` : ''} not followed` : `HTTP ${status}`;
  const retryAfterMs = status === 429 || status === 503 ? parseRetryAfter(retryAfter) : undefined;
  return { ok: false, ...base, error, failure: 'status', ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) };
}

export async function sendOnce(req: SendRequest): Promise<SendResult> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const timedOut = new Promise<'timeout' | 'aborted'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), req.timeoutMs);
    onAbort = () => resolve('aborted');
    if (req.signal?.aborted) onAbort();
    else req.signal?.addEventListener('abort', onAbort, { once: true });
  });
  const stopped = (why: 'timeout' | 'aborted'): SendResult =>
    why === 'timeout' ? timeoutResult(req.timeoutMs) : { ok: false, excerpt: '', error: 'aborted: the service is shutting down', failure: 'aborted' };
  try {
    let target: Target;
    try {
      const resolved = await Promise.race([resolveTarget(req.url, req.allowPrivate), timedOut]);
      if (resolved === 'timeout' || resolved === 'aborted') return stopped(resolved);
      target = resolved;
    } catch (err) {
      if (err instanceof AppError) return { ok: false, excerpt: '', error: err.message, failure: 'blocked' };
      return { ok: false, excerpt: '', error: networkError(err), failure: 'network' };
    }
    const attempt = request(target, req);
    const outcome = await Promise.race([attempt.result, timedOut]);
    if (outcome !== 'timeout' && outcome !== 'aborted') return outcome;
    attempt.abort();
    return stopped(outcome);
  } finally {
    clearTimeout(timer);
    if (onAbort) req.signal?.removeEventListener('abort', onAbort);
  }
}

function timeoutResult(timeoutMs: number): SendResult {
  return { ok: false, excerpt: '', error: `timeout: no complete answer within ${(timeoutMs / 1000).toFixed(1)} s`, failure: 'timeout' };
}

/** A reused socket closed or reset by the receiver before any byte of an answer: worth one more try on a fresh connection. */
function staleSocketError(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException)?.code;
  return code === 'ECONNRESET' || code === 'EPIPE';
}

function request(target: Target, req: SendRequest): { result: Promise<SendResult>; abort: () => void } {
  const payload = typeof req.body === 'string' ? Buffer.from(req.body, 'utf8') : Buffer.from(req.body);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json',
    'user-agent': USER_AGENT,
    ...req.headers,
  };
  if (req.chunked) headers['transfer-encoding'] = 'chunked';
  else headers['content-length'] = String(payload.length);

  const secure = target.url.protocol === 'https:';
  const pin = pinKey(target.addresses);
  let current: http.ClientRequest | null = null;
  let aborted = false;

  const result = new Promise<SendResult>((resolve) => {
    let settled = false;
    const settle = (r: SendResult): void => {
      if (settled) return;
      settled = true;
      resolve(r);
    };

    /** One HTTP exchange: on a pooled connection, or (fresh) on a new one that is not pooled. */
    const exchange = (fresh: boolean): void => {
      const options: PinnedOptions = {
        method: 'POST',
        headers,
        // A fresh connection is the retry after a stale pooled one: nothing to reuse, nothing kept.
        agent: fresh ? false : secure ? agents.https : agents.http,
        ...(target.addresses ? { lookup: pinnedLookup(target.addresses) } : {}),
        ...(pin !== undefined ? { [PIN_OPTION]: pin } : {}),
      };
      const client = (secure ? https : http).request(target.url, options);
      current = client;
      // What the socket had read before this exchange: a reused one counts its earlier answers too.
      let readBefore = 0;
      client.on('socket', (socket: Socket) => {
        readBefore = socket.bytesRead;
      });
      client.on('error', (err) => {
        const nothingRead = !client.socket || client.socket.bytesRead === readBefore;
        if (!fresh && !aborted && !settled && client.reusedSocket && nothingRead && staleSocketError(err)) return exchange(true);
        settle({ ok: false, excerpt: '', error: networkError(err), failure: 'network' });
      });
      client.on('response', (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const finish = (): void => {
          if (settled) return;
          try {
            settle(judgeAnswer(res.statusCode ?? 0, Buffer.concat(chunks).toString('utf8'), res.headers.location, res.headers['retry-after']));
          } catch (err) {
            // Unreachable by design; an exception here would end the process (it runs in an event handler).
            settle({
              ok: false,
              statusCode: res.statusCode,
              excerpt: '',
              error: `answer not understood: ${(err as Error)?.message ?? String(err)}`,
              failure: 'answer',
            });
          }
        };
        res.on('data', (chunk: Buffer) => {
          if (settled) return;
          const room = MAX_RESPONSE_BYTES - size;
          chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
          size += Math.min(chunk.length, room);
          if (size >= MAX_RESPONSE_BYTES) {
            // Enough read: judge what we have and close the connection on the rest.
            finish();
            res.destroy();
          }
        });
        res.on('end', finish);
        res.on('error', (err) => settle({ ok: false, statusCode: res.statusCode, excerpt: '', error: networkError(err), failure: 'network' }));
        // Closed before 'end' (the receiver hung up mid-answer); a no-op once settled.
        res.on('close', () =>
          settle({ ok: false, statusCode: res.statusCode, excerpt: '', error: 'connection closed before the answer was complete', failure: 'network' }),
        );
      });

      if (req.chunked && payload.length > 1) {
        const half = Math.ceil(payload.length / 2);
        client.write(payload.subarray(0, half));
        client.end(payload.subarray(half));
      } else {
        client.end(payload);
      }
    };
    exchange(false);
  });

  return {
    result,
    abort: () => {
      aborted = true;
      current?.destroy();
    },
  };
}
