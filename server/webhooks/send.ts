/**
 * One HTTP attempt of an outgoing request, with node:http(s): JSON body with
 * Content-Length or chunked, the signature headers, one timeout covering DNS,
 * connect and the whole response, no redirects followed, at most 64 KiB of the
 * answer read (then the connection is closed), the answer parsed as JSON
 * whatever its Content-Type. Never throws: every failure is a result.
 */
import http from 'node:http';
import https from 'node:https';
import { AppError } from '../errors/AppError.js';
import { pinnedLookup, resolveTarget, type Target } from './ssrf.js';

export const MAX_RESPONSE_BYTES = 64 * 1024;
export const EXCERPT_CHARS = 2000;
export const USER_AGENT = 'Parley-Webhooks/1';

export interface SendRequest {
  url: string;
  body: string;
  /** Extra headers (the Standard Webhooks signature). */
  headers: Record<string, string>;
  chunked: boolean;
  timeoutMs: number;
  allowPrivate: boolean;
  /** Abandons the attempt (shutdown): the result is `aborted`, to be released rather than counted. */
  signal?: AbortSignal;
}

/** Why an attempt failed: target refused by the SSRF guard, no answer in time, network error, a non-2xx status, or abandoned. */
export type FailureKind = 'blocked' | 'timeout' | 'network' | 'status' | 'aborted';

export interface SendResult {
  ok: boolean;
  statusCode?: number;
  /** The answer parsed as JSON; undefined when it is not JSON. */
  body?: unknown;
  /** The start of the answer's text, for the delivery log. */
  excerpt: string;
  error?: string;
  failure?: FailureKind;
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

function parseAnswer(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text.replace(/^\uFEFF/, '')) as unknown;
  } catch {
    return undefined;
  }
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

function request(target: Target, req: SendRequest): { result: Promise<SendResult>; abort: () => void } {
  const payload = Buffer.from(req.body, 'utf8');
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json',
    'user-agent': USER_AGENT,
    ...req.headers,
  };
  if (req.chunked) headers['transfer-encoding'] = 'chunked';
  else headers['content-length'] = String(payload.length);

  const transport = target.url.protocol === 'https:' ? https : http;
  const client = transport.request(target.url, {
    method: 'POST',
    headers,
    // A fresh connection per attempt: the pinned lookup applies to it, nothing lingers after shutdown.
    agent: false,
    ...(target.addresses ? { lookup: pinnedLookup(target.addresses) } : {}),
  });

  const result = new Promise<SendResult>((resolve) => {
    let settled = false;
    const settle = (r: SendResult): void => {
      if (settled) return;
      settled = true;
      resolve(r);
    };
    client.on('error', (err) => settle({ ok: false, excerpt: '', error: networkError(err), failure: 'network' }));
    client.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const finish = (): void => {
        const text = Buffer.concat(chunks).toString('utf8');
        const status = res.statusCode ?? 0;
        const base = { statusCode: status, body: parseAnswer(text), excerpt: text.slice(0, EXCERPT_CHARS) };
        if (status >= 200 && status < 300) return settle({ ok: true, ...base });
        const location = res.headers.location ? ` to ${res.headers.location}` : '';
        const error = status >= 300 && status < 400 ? `HTTP ${status}: redirect${location} not followed` : `HTTP ${status}`;
        settle({ ok: false, ...base, error, failure: 'status' });
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
  });

  if (req.chunked && payload.length > 1) {
    const half = Math.ceil(payload.length / 2);
    client.write(payload.subarray(0, half));
    client.end(payload.subarray(half));
  } else {
    client.end(payload);
  }
  return { result, abort: () => client.destroy() };
}
