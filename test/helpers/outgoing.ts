/**
 * For a describe block about what leaves Parley: a test app with a customer
 * system (the chat channel's webhook_url) and an event-webhook receiver, both
 * recording, started before the block's tests and closed after them.
 */
import { afterAll, beforeAll } from 'vitest';
import { createChatChannel, postInbound, startCustomerEndpoint, textMessage, type ChatChannel } from './chatChannel.js';
import { bearer, createTestApp, type TestApp } from './testApp.js';
import { startEndpoint, type Endpoint } from './webhooks.js';

export interface Outgoing {
  t: TestApp;
  customer: Awaited<ReturnType<typeof startCustomerEndpoint>>;
  receiver: Endpoint;
}

/** Registers the block's beforeAll/afterAll; the members are set once beforeAll has run. */
export function withOutgoing(): Outgoing {
  const out = {} as Outgoing;
  beforeAll(async () => {
    out.t = await createTestApp();
    out.customer = await startCustomerEndpoint();
    out.receiver = await startEndpoint();
  });
  afterAll(async () => {
    await out.t.close();
    await out.customer.close();
    await out.receiver.close();
  });
  return out;
}

/**
 * Event webhooks to the receiver, a chat channel to the customer system, and a
 * chat opened on it by `senderId` (named Pia): the channel and the pending chat's id.
 */
export async function chatToCustomer(o: Outgoing, senderId: string | number, text: string): Promise<{ channel: ChatChannel; chatId: number }> {
  const { t } = o;
  const settings = await t.app.inject({
    method: 'PUT',
    url: '/api/v1/settings',
    headers: bearer(t.adminToken),
    payload: { event_webhook_url: `${o.receiver.url}/events` },
  });
  if (settings.statusCode !== 200) throw new Error(`PUT /settings answered ${settings.statusCode}: ${settings.body}`);
  const channel = await createChatChannel(t, { webhook_url: o.customer.url });
  const inbound = await postInbound(t, channel, textMessage(senderId, text, { name: 'Pia' }));
  if (inbound.statusCode !== 200) throw new Error(`the inbound message answered ${inbound.statusCode}: ${inbound.body}`);
  const chat = (await t.app.inject({ method: 'GET', url: '/api/v1/chats?status=pending', headers: bearer(t.adminToken) })).json<Array<{ id: number }>>()[0];
  return { channel, chatId: chat.id };
}
