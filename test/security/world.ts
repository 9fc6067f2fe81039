/**
 * One account with something of every resource of /openapi.json and of the
 * widget, made through the real routes: an agent, a department, a chat_api
 * and a widget channel, a chat on each (with messages), an agent reply (so a
 * delivery row), an offline message and a callback call. Security tests then
 * aim a second account, or a role without the right, at every one of its ids.
 */
import { addAgent } from '../helpers/accounts.js';
import { createChatChannel, postInbound, textMessage, type ChatChannel } from '../helpers/chatChannel.js';
import { bearer, type TestApp } from '../helpers/testApp.js';
import { createWidget, sendText, startSession, visitorCall, type TestWidget } from '../helpers/widget.js';

export const VISITOR_NAME = 'Zelda Secretname';

export interface World {
  agent: { id: number; token: string };
  adminId: number;
  departmentId: number;
  chatApi: ChatChannel;
  widget: TestWidget;
  visitorToken: string;
  chatApiChatId: number;
  widgetChatId: number;
  messageId: number;
  deliveryId: number;
  offlineMessageId: number;
  callId: number;
  uploadName: string;
}

async function ok<T>(t: TestApp, what: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown, token = t.adminToken): Promise<T> {
  const res = await t.app.inject({ method, url, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as object }) });
  if (res.statusCode >= 300) throw new Error(`${what}: ${res.statusCode} ${res.body}`);
  return (res.body ? res.json() : null) as T;
}

export async function buildWorld(t: TestApp, tag = 'a'): Promise<World> {
  const db = t.app.ctx.db;
  const agent = await addAgent(t, { email: `world-agent-${tag}@example.com` });
  const adminId = (await ok<{ id: number }>(t, 'me', 'GET', '/api/v1/me')).id;
  const departmentId = (await ok<{ id: number }>(t, 'department', 'POST', '/api/v1/departments', { name: `Sales ${tag}` })).id;
  const chatApi = await createChatChannel(t, { name: `App ${tag}` });
  const widget = await createWidget(t, { name: `Site ${tag}` });
  await ok(t, 'settings', 'PUT', '/api/v1/settings', { callback: { enabled: true, balance_seconds: 3600, hours: null } });

  const inbound = await postInbound(t, chatApi, textMessage(`cust-${tag}`, 'I need help', { name: VISITOR_NAME, email: `zelda-${tag}@example.com` }));
  if (inbound.statusCode !== 200) throw new Error(`inbound: ${inbound.statusCode} ${inbound.body}`);
  const visitor = await db.selectFrom('visitors').select('id').where('external_id', '=', `cust-${tag}`).executeTakeFirstOrThrow();
  const chatApiChatId = (await db.selectFrom('chats').select('id').where('visitor_id', '=', visitor.id).executeTakeFirstOrThrow()).id;
  const reply = await ok<{ id: number }>(t, 'reply', 'POST', `/api/v1/chats/${chatApiChatId}/messages`, { type: 'text', text: 'How can I help?' });
  const delivery = await db.selectFrom('deliveries').select('id').where('message_id', '=', reply.id).executeTakeFirstOrThrow();

  // A finished chat too, so every list filter has a row.
  await postInbound(t, chatApi, textMessage(`old-${tag}`, 'An old question', { name: `${VISITOR_NAME} (old)` }));
  const oldVisitor = await db.selectFrom('visitors').select('id').where('external_id', '=', `old-${tag}`).executeTakeFirstOrThrow();
  const oldChat = await db.selectFrom('chats').select('id').where('visitor_id', '=', oldVisitor.id).executeTakeFirstOrThrow();
  await ok(t, 'finish', 'POST', `/api/v1/chats/${oldChat.id}/finish`, {});

  const session = await startSession(t, widget.widget_id);
  const sent = await sendText(t, widget.widget_id, session.visitor_token, 'Hello from the site');
  const offline = await visitorCall(t, widget.widget_id, session.visitor_token, 'offline', {
    name: VISITOR_NAME,
    message: 'Call me back later',
    email: 'zelda@example.com',
  });
  if (offline.statusCode !== 200) throw new Error(`offline: ${offline.statusCode} ${offline.body}`);
  const offlineRow = await db.selectFrom('offline_messages').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow();
  const call = await visitorCall(t, widget.widget_id, session.visitor_token, 'callback', { phone: '+1 555 010 0199' });
  if (call.statusCode !== 200 || call.json().result !== 'ok') throw new Error(`callback: ${call.statusCode} ${call.body}`);
  const upload = await t.app.inject({
    method: 'POST',
    url: `/widget/api/${widget.widget_id}/uploads`,
    headers: { ...bearer(session.visitor_token), 'content-type': 'text/plain', 'x-file-name': 'notes.txt', 'x-forwarded-for': '192.0.2.200' },
    payload: Buffer.from('private notes'),
  });
  if (upload.statusCode !== 200) throw new Error(`upload: ${upload.statusCode} ${upload.body}`);
  // A finished erasure of a visitor long gone, so GET /api/v1/erasures/:id has a row (erasing a visitor of this world would take its rows).
  const me = await db.selectFrom('agents').select('account_id').where('id', '=', adminId).executeTakeFirstOrThrow();
  const at = Date.now();
  await db
    .insertInto('erasures')
    .values({
      account_id: me.account_id,
      visitor_id: 999_999,
      visitor_number: 999_999,
      channel_id: null,
      requested_by: adminId,
      status: 'done',
      chats_total: 0,
      chats_erased: 0,
      messages_total: 0,
      messages_erased: 0,
      files_erased: 0,
      identifiers_json: null,
      created_at: at,
      updated_at: at,
      finished_at: at,
    })
    .execute();

  return {
    agent,
    adminId,
    departmentId,
    chatApi,
    widget,
    visitorToken: session.visitor_token,
    chatApiChatId,
    widgetChatId: sent.chat_id,
    messageId: reply.id,
    deliveryId: delivery.id,
    offlineMessageId: offlineRow.id,
    callId: call.json().call_id as number,
    uploadName: String(upload.json().file).split('/').pop() ?? '',
  };
}
