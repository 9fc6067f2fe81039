/**
 * SSRF through a redirect, with OUTBOUND_ALLOW_PRIVATE off: a public-looking
 * target (a DNS name answering a public address) that redirects to a
 * loopback one. The name is made to resolve to 93.184.216.34 and the
 * connection to that address is carried to a server on 127.0.0.1 (the only
 * way to stand up a "public" server in a test); everything else is the real
 * SSRF guard and sender. The redirect is never followed: the private server
 * gets nothing, and the delivery records the redirect as a failed attempt.
 */
import dns from 'node:dns';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createChatChannel, postInbound, textMessage, waitFor, type RecordedRequest } from '../helpers/chatChannel.js';
import { bearer, createTestApp, type TestApp } from '../helpers/testApp.js';

const PUBLIC_NAME = 'public-target.example';
const PUBLIC_ADDRESS = '93.184.216.34';

vi.mock('../../server/webhooks/ssrf.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../server/webhooks/ssrf.js')>();
  return {
    ...real,
    // Connections to the "public" address go to loopback, where the test's server listens.
    pinnedLookup: (addresses: dns.LookupAddress[]) =>
      real.pinnedLookup(addresses.map((a) => (a.address === '93.184.216.34' ? { address: '127.0.0.1', family: 4 } : a))),
  };
});

function server(respond: (req: http.IncomingMessage, res: http.ServerResponse) => void) {
  const requests: RecordedRequest[] = [];
  const srv = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString(), at: Date.now() });
      respond(req, res);
    });
  });
  return {
    requests,
    start: () => new Promise<number>((resolve) => srv.listen(0, '127.0.0.1', () => resolve((srv.address() as AddressInfo).port))),
    close: () =>
      new Promise<void>((resolve) => {
        srv.closeAllConnections();
        srv.close(() => resolve());
      }),
  };
}

describe('SSRF: a public target that redirects to a private one', () => {
  let t: TestApp;
  const internal = server((_req, res) => res.end('{"result":"ok"}'));
  let internalPort = 0;
  let outsidePort = 0;
  const outside = server((req, res) => {
    const status = req.url?.includes('/307/') ? 307 : 302;
    res.writeHead(status, { location: `http://127.0.0.1:${internalPort}/internal`, 'content-type': 'text/plain' });
    res.end('moved');
  });

  beforeAll(async () => {
    internalPort = await internal.start();
    outsidePort = await outside.start();
    const lookup = dns.promises.lookup.bind(dns.promises);
    vi.spyOn(dns.promises, 'lookup').mockImplementation(((host: string, options: dns.LookupAllOptions) =>
      host === PUBLIC_NAME ? Promise.resolve([{ address: PUBLIC_ADDRESS, family: 4 }]) : lookup(host, options)) as typeof dns.promises.lookup);
    t = await createTestApp({ env: { OUTBOUND_ALLOW_PRIVATE: '0' } });
  });
  afterAll(async () => {
    await t.close();
    await internal.close();
    await outside.close();
    vi.restoreAllMocks();
  });

  it.each(['302', '307'])('never follows a %s to a loopback address: the private server gets nothing', async (code) => {
    const channel = await createChatChannel(t, { webhook_url: `http://${PUBLIC_NAME}:${outsidePort}/${code}/hook` });
    await postInbound(t, channel, textMessage(`redirected-${code}`, 'hello'));
    const visitor = await t.app.ctx.db.selectFrom('visitors').select('id').where('external_id', '=', `redirected-${code}`).executeTakeFirstOrThrow();
    const chat = await t.app.ctx.db.selectFrom('chats').select('id').where('visitor_id', '=', visitor.id).executeTakeFirstOrThrow();
    const sent = await t.app.inject({
      method: 'POST',
      url: `/api/v1/chats/${chat.id}/messages`,
      headers: bearer(t.adminToken),
      payload: { type: 'text', text: 'reply' },
    });
    expect(sent.statusCode).toBe(201);
    const row = await waitFor(() =>
      t.app.ctx.db.selectFrom('deliveries').selectAll().where('message_id', '=', sent.json().id).where('attempts', '>=', 1).executeTakeFirst(),
    );
    expect(row.last_status_code).toBe(Number(code));
    expect(row.last_error).toContain(`redirect to http://127.0.0.1:${internalPort}/internal not followed`);
    expect(row.status).not.toBe('delivered');
    // The public target was reached; the private one never is.
    expect(outside.requests.some((r) => r.url.startsWith(`/${code}/hook/`))).toBe(true);
    await new Promise((r) => setTimeout(r, 200));
    expect(internal.requests).toEqual([]);
  });
});
