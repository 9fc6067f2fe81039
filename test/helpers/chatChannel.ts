/** Test helpers for the chat channel: create a channel through the admin API, post to its endpoint, run a customer endpoint. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { bearer, type TestApp } from './testApp.js';

export interface ChatChannel {
  id: number;
  public_id: string;
  endpoint_url: string;
  status_url: string;
  webhook_url: string;
  /** endpoint_url without PUBLIC_URL, for inject(). */
  path: string;
}

export async function createChatChannel(
  t: TestApp,
  body: { webhook_url?: string; chunked?: boolean; agent_ids?: number[]; name?: string } = {},
): Promise<ChatChannel> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/channels',
    headers: bearer(t.adminToken),
    payload: {
      type: 'chat_api',
      name: body.name ?? 'Support app',
      webhook_url: body.webhook_url ?? 'https://customer.example.com/hook',
      chunked: body.chunked ?? false,
      agent_ids: body.agent_ids ?? [],
    },
  });
  if (res.statusCode !== 201) throw new Error(`channel creation failed: ${res.statusCode} ${res.body}`);
  const channel = res.json();
  return { ...channel, path: new URL(channel.endpoint_url).pathname };
}

export function postInbound(t: TestApp, channel: ChatChannel, body: unknown, headers: Record<string, string> = { 'content-type': 'application/json' }) {
  return t.app.inject({ method: 'POST', url: channel.path, headers, payload: typeof body === 'string' ? body : JSON.stringify(body) });
}

export const textMessage = (senderId: string | number, text: string, extra: Record<string, unknown> = {}) => ({
  sender: { id: senderId, ...extra },
  message: { type: 'text', text },
});

export interface RecordedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

/** A customer endpoint on 127.0.0.1 that records requests and answers as `respond` says. */
export async function startCustomerEndpoint(
  respond: (req: RecordedRequest, n: number) => { status?: number; body?: string; delayMs?: number } = () => ({ status: 200, body: '{"result":"ok"}' }),
) {
  const requests: RecordedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rec: RecordedRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
        at: Date.now(),
      };
      requests.push(rec);
      const answer = respond(rec, requests.length);
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(answer.status ?? 200, { 'content-type': 'application/json' });
        res.end(answer.body ?? '{"result":"ok"}');
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export async function waitFor<T>(fn: () => Promise<T | undefined | null | false> | T | undefined | null | false, timeoutMs = 10_000, stepMs = 25): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > until) throw new Error('waitFor: timed out');
    await new Promise((r) => setTimeout(r, stepMs));
  }
}
