/** One HTTP attempt against a real local endpoint: framing, redirects, timeouts, answer size cap, SSRF refusal. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_RESPONSE_BYTES, sendOnce, type SendRequest } from './send.js';
import { closedPort, startEndpoint, type Endpoint } from '../../test/helpers/webhooks.js';

const base = (url: string, over: Partial<SendRequest> = {}): SendRequest => ({
  url,
  body: JSON.stringify({ message: { type: 'text', text: 'héllo' } }),
  headers: { 'webhook-id': 'msg_x' },
  chunked: false,
  timeoutMs: 2000,
  allowPrivate: true,
  ...over,
});

describe('sendOnce', () => {
  let ep: Endpoint | null = null;
  afterEach(async () => {
    await ep?.close();
    ep = null;
  });

  it('sends JSON with Content-Length, the user agent and the given headers', async () => {
    ep = await startEndpoint();
    const req = base(`${ep.url}/hook`);
    const res = await sendOnce(req);
    expect(res).toMatchObject({ ok: true, statusCode: 200, body: { result: 'ok' } });
    const [r] = ep.requests;
    expect(r.method).toBe('POST');
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.headers['user-agent']).toBe('Parley-Webhooks/1');
    expect(r.headers['webhook-id']).toBe('msg_x');
    expect(r.headers['content-length']).toBe(String(Buffer.byteLength(req.body)));
    expect(r.headers['transfer-encoding']).toBeUndefined();
    expect(r.body).toBe(req.body);
  });

  it('sends with Transfer-Encoding: chunked and no Content-Length when asked', async () => {
    ep = await startEndpoint();
    const req = base(`${ep.url}/hook`, { chunked: true });
    expect((await sendOnce(req)).ok).toBe(true);
    const [r] = ep.requests;
    expect(r.headers['transfer-encoding']).toBe('chunked');
    expect(r.headers['content-length']).toBeUndefined();
    expect(r.body).toBe(req.body);
  });

  it('keeps a URL joined as plain strings (webhook_url ending in ?c=)', async () => {
    ep = await startEndpoint();
    await sendOnce(base(`${ep.url}/hook?c=/PUB123`));
    expect(ep.requests[0].url).toBe('/hook?c=/PUB123');
  });

  it('parses the answer as JSON whatever its Content-Type; a non-JSON answer has no body', async () => {
    ep = await startEndpoint((_r, i) => (i === 0 ? { body: '{"result":"ok"}', headers: { 'content-type': 'text/plain' } } : { body: 'OK!' }));
    expect((await sendOnce(base(ep.url))).body).toEqual({ result: 'ok' });
    expect(await sendOnce(base(ep.url))).toMatchObject({ ok: true, body: undefined, excerpt: 'OK!' });
  });

  it('does not follow redirects: a 3xx is a failure and only one request is made', async () => {
    ep = await startEndpoint((r) => (r.url === '/start' ? { status: 302, headers: { location: '/elsewhere' } } : { body: '{"result":"ok"}' }));
    const res = await sendOnce(base(`${ep.url}/start`));
    expect(res).toMatchObject({ ok: false, statusCode: 302, failure: 'status' });
    expect(res.error).toContain('redirect to /elsewhere not followed');
    expect(ep.requests.map((r) => r.url)).toEqual(['/start']);
  });

  it('reports other statuses, with the answer excerpt', async () => {
    ep = await startEndpoint(() => ({ status: 500, body: '{"oops":true}' }));
    expect(await sendOnce(base(ep.url))).toMatchObject({ ok: false, statusCode: 500, error: 'HTTP 500', excerpt: '{"oops":true}', body: { oops: true } });
  });

  it('times out on a receiver that never answers, covering the whole exchange', async () => {
    ep = await startEndpoint(() => ({ hang: true }));
    const started = Date.now();
    const res = await sendOnce(base(ep.url, { timeoutMs: 700 }));
    const took = Date.now() - started;
    expect(res).toMatchObject({ ok: false, failure: 'timeout' });
    expect(took).toBeGreaterThanOrEqual(650);
    expect(took).toBeLessThan(1500);
  });

  it('reports a refused connection and a dropped one', async () => {
    const res = await sendOnce(base(`http://127.0.0.1:${await closedPort()}/x`));
    expect(res).toMatchObject({ ok: false, failure: 'network' });
    expect(res.error).toMatch(/^connection refused/);
    ep = await startEndpoint(() => ({ reset: true }));
    expect(await sendOnce(base(ep.url))).toMatchObject({ ok: false, failure: 'network' });
  });

  it('reads at most 64 KiB of the answer and then closes the connection', async () => {
    let closed = false;
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('x'.repeat(MAX_RESPONSE_BYTES + 10_000));
      res.socket?.on('close', () => (closed = true));
      // Never ends: only a reader that stops at the cap returns before the timeout.
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const started = Date.now();
      const res = await sendOnce(base(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, { timeoutMs: 3000 }));
      expect(Date.now() - started).toBeLessThan(2000);
      expect(res).toMatchObject({ ok: true, statusCode: 200, body: undefined });
      expect(res.excerpt.length).toBe(2000);
      await new Promise((r) => setTimeout(r, 100));
      expect(closed).toBe(true);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });

  it('refuses a private target when private targets are not allowed, without connecting', async () => {
    ep = await startEndpoint();
    const res = await sendOnce(base(ep.url, { allowPrivate: false }));
    expect(res).toMatchObject({ ok: false, failure: 'blocked' });
    expect(res.error).toContain('loopback');
    expect(ep.requests).toHaveLength(0);
  });

  it('reads an answer as data: __proto__ and constructor keys at any depth are dropped (#17 item 12)', async () => {
    ep = await startEndpoint(() => ({
      status: 200,
      body: '{"result":"ok","constructor":{"prototype":{"result":"FAILURE"}},"__proto__":{"error":{"code":1,"message":"no"}},"custom_data":[{"title":"t","constructor":"x","\\u005f_proto__":{"content":"evil"}}]}',
    }));
    const res = await sendOnce(base(ep.url));
    expect(res).toMatchObject({ ok: true, statusCode: 200 });
    expect(res.body).toStrictEqual({ result: 'ok', custom_data: [{ title: 't' }] });
    expect(Object.getPrototypeOf(res.body)).toBe(Object.prototype);
  });
});
