/**
 * Test helpers for the widget's server side: a widget channel made through
 * the admin API, visitor sessions and calls through the real routes (each
 * session on its own client address, X-Forwarded-For with trustProxy on, so
 * per-address rate limits do not leak between tests), the visitor socket's URL.
 */
import type { LightMyRequestResponse } from 'fastify';
import type { SessionResponse } from '../../protocol/widget.js';
import { addAgent } from './accounts.js';
import { StreamClient } from './realtime.js';
import { bearer, type TestApp } from './testApp.js';

export interface TestWidget {
  id: number;
  widget_id: string;
}

let lastIp = 0;
/** A fresh documentation-range address (198.18.0.0/15) per call. */
export function freshIp(): string {
  lastIp += 1;
  return `198.18.${Math.floor(lastIp / 250) % 250}.${(lastIp % 250) + 1}`;
}

export async function createWidget(
  t: TestApp,
  body: { name?: string; agent_ids?: number[]; allowed_domains?: string[] } = {},
  token = t.adminToken,
): Promise<TestWidget> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/channels',
    headers: bearer(token),
    payload: { type: 'widget', name: body.name ?? 'Site', ...body },
  });
  if (res.statusCode !== 201) throw new Error(`widget creation failed: ${res.statusCode} ${res.body}`);
  return res.json<TestWidget>();
}

export interface SessionOptions {
  token?: string;
  page?: { url: string; title?: string };
  utm?: Record<string, string>;
  /** SessionRequest.language: the widget's language. */
  language?: unknown;
  ip?: string;
  headers?: Record<string, string>;
}

export function postSession(t: TestApp, widgetId: string, o: SessionOptions = {}): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: 'POST',
    url: `/widget/api/${widgetId}/session`,
    headers: {
      'x-forwarded-for': o.ip ?? freshIp(),
      'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
      ...o.headers,
    },
    payload: { visitor_token: o.token, page: o.page ?? { url: 'https://shop.example.com/', title: 'Shop' }, utm: o.utm, language: o.language },
  });
}

export async function startSession(t: TestApp, widgetId: string, o: SessionOptions = {}): Promise<SessionResponse> {
  const res = await postSession(t, widgetId, o);
  if (res.statusCode !== 200) throw new Error(`session failed: ${res.statusCode} ${res.body}`);
  return res.json<SessionResponse>();
}

/** A visitor call: POST (or GET) /widget/api/<widget_id>/<path> with the visitor's token. */
export function visitorCall(
  t: TestApp,
  widgetId: string,
  token: string,
  path: string,
  payload?: unknown,
  o: { ip?: string; method?: 'GET' | 'POST'; headers?: Record<string, string> } = {},
): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: o.method ?? 'POST',
    url: `/widget/api/${widgetId}/${path}`,
    headers: { ...bearer(token), 'x-forwarded-for': o.ip ?? freshIp(), ...o.headers },
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
}

export async function sendText(
  t: TestApp,
  widgetId: string,
  token: string,
  text: string,
  extra: Record<string, unknown> = {},
): Promise<{ id: number; chat_id: number }> {
  const res = await visitorCall(t, widgetId, token, 'messages', { type: 'text', text, ...extra });
  if (res.statusCode !== 201) throw new Error(`message failed: ${res.statusCode} ${res.body}`);
  return res.json();
}

export const visitorSocketUrl = (base: string, widgetId: string, token: string, cursor?: number): string =>
  `${base}/widget/ws/${widgetId}?token=${encodeURIComponent(token)}${cursor === undefined ? '' : `&cursor=${cursor}`}`;

export async function agentReply(t: TestApp, chatId: number, text: string, token = t.adminToken): Promise<LightMyRequestResponse> {
  const res = await t.app.inject({ method: 'POST', url: `/api/v1/chats/${chatId}/messages`, headers: bearer(token), payload: { type: 'text', text } });
  if (res.statusCode !== 201) throw new Error(`agent reply failed: ${res.statusCode} ${res.body}`);
  return res;
}

export async function setStatus(t: TestApp, status: 'online' | 'away' | 'offline', token = t.adminToken): Promise<void> {
  const res = await t.app.inject({ method: 'PUT', url: '/api/v1/me/status', headers: bearer(token), payload: { status } });
  if (res.statusCode !== 200) throw new Error(`status failed: ${res.statusCode} ${res.body}`);
}

/** A new visitor of the widget (its session token) and how it uploads a text file (POST /widget/api/:id/uploads, from a fresh address each time). */
export async function uploadingVisitor(
  t: TestApp,
  widgetId: string,
): Promise<{ token: string; upload: (body: Buffer, name?: string) => Promise<LightMyRequestResponse> }> {
  const token = (await startSession(t, widgetId)).visitor_token;
  const upload = (body: Buffer, name = 'notes.txt') =>
    t.app.inject({
      method: 'POST',
      url: `/widget/api/${widgetId}/uploads`,
      headers: { ...bearer(token), 'content-type': 'text/plain', 'x-file-name': name, 'x-forwarded-for': freshIp() },
      payload: body,
    });
  return { token, upload };
}

/** `count` new agents (agent0@example.com, …, named Agent 0, …), each online. */
export async function addOnlineAgents(t: TestApp, count: number): Promise<Array<{ id: number; token: string }>> {
  const agents = [];
  for (let i = 0; i < count; i++) {
    const a = await addAgent(t, { email: `agent${i}@example.com`, name: `Agent ${i}` });
    await setStatus(t, 'online', a.token);
    agents.push(a);
  }
  return agents;
}

/** A visitor socket of the widget opened from `cursor` and ready, closed with the live app's other clients. */
export async function openVisitorSocket(
  srv: { base: string; clients: StreamClient[] },
  widgetId: string,
  token: string,
  cursor: number,
): Promise<StreamClient> {
  const c = await StreamClient.ready(visitorSocketUrl(srv.base, widgetId, token, cursor));
  srv.clients.push(c);
  return c;
}
