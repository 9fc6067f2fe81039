/**
 * The keep-alive pool of sendOnce (send.ts) on real sockets: connections are
 * reused per host, port and validated addresses; a host name whose validated
 * addresses change never gets a socket opened to the old ones (the SSRF pin
 * holds across reuse); a pooled socket the receiver closed is retried once on
 * a fresh connection, a fresh one is not; idle sockets are closed on request.
 * The SSRF guard's resolver is replaced here so that loopback addresses can
 * play the part of validated public ones (the guard itself: ssrf.test.ts).
 */
import http from 'node:http';
import net from 'node:net';
import type dns from 'node:dns';
import { afterEach, describe, expect, it, vi } from 'vitest';

const resolved = vi.hoisted(() => ({ addresses: null as dns.LookupAddress[] | null }));

vi.mock('./ssrf.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('./ssrf.js')>();
  return {
    ...real,
    // "Validated" addresses chosen by the test; the real pinned lookup connects to them.
    resolveTarget: async (raw: string) => ({ url: real.parseOutboundUrl(raw), addresses: resolved.addresses }),
  };
});

const { closeIdleConnections, idleConnections, sendOnce } = await import('./send.js');

interface Receiver {
  port: number;
  /** Connections accepted, per listening address. */
  connections: Map<string, number>;
  requests: string[];
  close(): Promise<void>;
}

/** An HTTP receiver on the given loopback addresses, all on one port; answers 200 {"result":"ok"} with keep-alive. */
async function receiver(hosts: string[], answer?: (req: http.IncomingMessage, res: http.ServerResponse, n: number) => void): Promise<Receiver> {
  const connections = new Map<string, number>();
  const requests: string[] = [];
  const servers: http.Server[] = [];
  let port = 0;
  for (const host of hosts) {
    const server = http.createServer((req, res) => {
      requests.push(`${host} ${req.url}`);
      req.resume();
      req.on('end', () => {
        if (answer) return answer(req, res, requests.length - 1);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"result":"ok"}');
      });
    });
    server.on('connection', () => connections.set(host, (connections.get(host) ?? 0) + 1));
    await new Promise<void>((resolve) => server.listen(port, host, resolve));
    port = (server.address() as net.AddressInfo).port;
    servers.push(server);
  }
  return {
    port,
    connections,
    requests,
    close: async () => {
      for (const s of servers) {
        s.closeAllConnections();
        await new Promise((r) => s.close(r));
      }
    },
  };
}

const send = (url: string) => sendOnce({ url, body: '{"a":1}', headers: { 'webhook-id': 'msg_pool' }, chunked: false, timeoutMs: 2000, allowPrivate: false });

describe('sendOnce connection pool', () => {
  const open: Receiver[] = [];
  const start = async (...a: Parameters<typeof receiver>) => {
    const r = await receiver(...a);
    open.push(r);
    return r;
  };
  afterEach(async () => {
    closeIdleConnections();
    await Promise.all(open.splice(0).map((r) => r.close()));
    resolved.addresses = null;
  });

  it('reuses one connection for requests to the same host, port and validated address', async () => {
    const r = await start(['127.0.0.1']);
    resolved.addresses = [{ address: '127.0.0.1', family: 4 }];
    for (let i = 0; i < 5; i++) expect(await send(`http://hook.example:${r.port}/e${i}`)).toMatchObject({ ok: true, statusCode: 200 });
    expect(r.requests).toHaveLength(5);
    expect(r.connections.get('127.0.0.1')).toBe(1);
    expect(idleConnections()).toBeGreaterThanOrEqual(1);
    closeIdleConnections();
    expect(idleConnections()).toBe(0);
  });

  it('never reuses a socket for the same host name once it validates to other addresses (rebinding)', async () => {
    const r = await start(['127.0.0.1', '127.0.0.2']);
    resolved.addresses = [{ address: '127.0.0.1', family: 4 }];
    expect((await send(`http://hook.example:${r.port}/first`)).ok).toBe(true);
    // The same name now resolves (and is validated) elsewhere: the request must go there, on a new connection.
    resolved.addresses = [{ address: '127.0.0.2', family: 4 }];
    expect((await send(`http://hook.example:${r.port}/second`)).ok).toBe(true);
    expect(r.requests).toEqual(['127.0.0.1 /first', '127.0.0.2 /second']);
    expect(r.connections.get('127.0.0.2')).toBe(1);
    // And back: the first pool still serves its own addresses only.
    resolved.addresses = [{ address: '127.0.0.1', family: 4 }];
    expect((await send(`http://hook.example:${r.port}/third`)).ok).toBe(true);
    expect(r.requests[2]).toBe('127.0.0.1 /third');
    expect(r.connections.get('127.0.0.1')).toBe(1);
  });

  it('does not share sockets between host names, even on one address', async () => {
    const r = await start(['127.0.0.1']);
    resolved.addresses = [{ address: '127.0.0.1', family: 4 }];
    expect((await send(`http://a.example:${r.port}/a`)).ok).toBe(true);
    expect((await send(`http://b.example:${r.port}/b`)).ok).toBe(true);
    expect(r.connections.get('127.0.0.1')).toBe(2);
  });

  it('sends once more on a fresh connection when a pooled one was closed by the receiver before answering', async () => {
    // Answers the first request of each connection; closes the connection on a second one (a keep-alive timeout racing the request).
    const perSocket = new WeakMap<net.Socket, number>();
    const r = await start(['127.0.0.1'], (req, res) => {
      const n = (perSocket.get(req.socket) ?? 0) + 1;
      perSocket.set(req.socket, n);
      if (n > 1) return void req.socket.destroy();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"result":"ok"}');
    });
    resolved.addresses = [{ address: '127.0.0.1', family: 4 }];
    expect((await send(`http://hook.example:${r.port}/one`)).ok).toBe(true);
    const second = await send(`http://hook.example:${r.port}/two`);
    expect(second).toMatchObject({ ok: true, statusCode: 200 });
    expect(r.requests).toEqual(['127.0.0.1 /one', '127.0.0.1 /two', '127.0.0.1 /two']);
    expect(r.connections.get('127.0.0.1')).toBe(2);
  });

  it('does not retry a fresh connection that the receiver drops', async () => {
    const r = await start(['127.0.0.1'], (req) => void req.socket.destroy());
    resolved.addresses = [{ address: '127.0.0.1', family: 4 }];
    expect(await send(`http://hook.example:${r.port}/x`)).toMatchObject({ ok: false, failure: 'network' });
    expect(r.requests).toHaveLength(1);
  });

  it('does not retry a pooled connection that drops after part of an answer', async () => {
    const perSocket = new WeakMap<net.Socket, number>();
    const r = await start(['127.0.0.1'], (req, res) => {
      const n = (perSocket.get(req.socket) ?? 0) + 1;
      perSocket.set(req.socket, n);
      if (n === 1) {
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end('{"result":"ok"}');
      }
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"res');
      setTimeout(() => req.socket.destroy(), 20);
    });
    resolved.addresses = [{ address: '127.0.0.1', family: 4 }];
    expect((await send(`http://hook.example:${r.port}/one`)).ok).toBe(true);
    expect(await send(`http://hook.example:${r.port}/two`)).toMatchObject({ ok: false, failure: 'network' });
    expect(r.requests).toEqual(['127.0.0.1 /one', '127.0.0.1 /two']);
  });
});
