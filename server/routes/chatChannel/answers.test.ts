/**
 * What a customer endpoint answers decides whether an agent's message was
 * delivered (#32 item 4, docs/CHAT-CHANNEL.md "Replies to your endpoint"): a
 * 200 saying `{"result":"fail"}` is a refusal, shown to the agent with its
 * reason and not tried again; the answers real clients give for success
 * (`{"result":"ok"}`, `{ok:true}`, an empty body, a JSON string holding the
 * object) are delivered. A real endpoint over HTTP, the real deliverer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChatChannel, postInbound, startCustomerEndpoint, textMessage, waitFor, type ChatChannel } from '../../../test/helpers/chatChannel.js';
import { bearer, createTestApp, testDialect, type TestApp } from '../../../test/helpers/testApp.js';

/** Each sender's replies are answered with this body (by the text the agent sent). */
const ANSWERS: Record<string, string> = {
  'reply fail': '{"result":"fail","reason":"The user closed the chat"}',
  'reply failure': '{"result":"FAILURE"}',
  'reply ok': '{"result":"ok"}',
  'reply lenient': '{"ok":true}',
  'reply empty': '',
  'reply wrapped': JSON.stringify('{"result":"ok"}'),
};

describe(`chat channel: the customer endpoint's answer (${testDialect()})`, () => {
  let t: TestApp;
  let channel: ChatChannel;
  let endpoint: Awaited<ReturnType<typeof startCustomerEndpoint>>;

  const api = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: bearer(t.adminToken), ...(payload === undefined ? {} : { payload: payload as object }) });

  /** The agent replies `text` in a fresh chat; the reply's delivery once it is final, and the attempts the endpoint saw. */
  const replyAnswered = async (text: string): Promise<{ delivery: { status: string; error?: string }; attempts: number }> => {
    const sender = `s-${text.replace(/\W/g, '-')}`;
    expect((await postInbound(t, channel, textMessage(sender, 'hello', { name: sender }))).statusCode).toBe(200);
    const chats = (await api('GET', '/chats')).json<Array<{ id: number; visitor: { name: string } }>>();
    const chat = chats.find((c) => c.visitor.name === sender)!;
    const sent = await api('POST', `/chats/${chat.id}/messages`, { type: 'text', text });
    expect(sent.statusCode).toBe(201);
    const id = sent.json<{ id: number }>().id;
    const delivery = await waitFor(async () => {
      const messages = (await api('GET', `/chats/${chat.id}`)).json<{ messages: Array<{ id: number; delivery?: { status: string; error?: string } }> }>()
        .messages;
      const d = messages.find((m) => m.id === id)?.delivery;
      return d && d.status !== 'pending' ? d : null;
    }, 15_000);
    const attempts = endpoint.requests.filter((r) => (JSON.parse(r.body) as { message?: { text?: string } }).message?.text === text).length;
    return { delivery, attempts };
  };

  beforeAll(async () => {
    endpoint = await startCustomerEndpoint((req) => {
      const text = (JSON.parse(req.body) as { message?: { text?: string } }).message?.text ?? '';
      return { status: 200, body: ANSWERS[text] ?? '{"result":"ok"}' };
    });
    t = await createTestApp();
    channel = await createChatChannel(t, { webhook_url: endpoint.url });
  });
  afterAll(async () => {
    await t.close();
    await endpoint.close();
  });

  it('does not deliver a reply answered {"result":"fail"}: the agent sees the reason, and it is not tried again', async () => {
    const { delivery, attempts } = await replyAnswered('reply fail');
    expect(delivery).toEqual({ status: 'failed', error: 'The user closed the chat' });
    expect(attempts).toBe(1);
  });

  it('says so when a failed result gives no reason', async () => {
    const { delivery } = await replyAnswered('reply failure');
    expect(delivery.status).toBe('failed');
    expect(delivery.error).toContain('result "FAILURE"');
  });

  it.each(['reply ok', 'reply lenient', 'reply empty', 'reply wrapped'])('delivers a reply answered as real clients do for success (%s)', async (text) => {
    const { delivery, attempts } = await replyAnswered(text);
    expect(delivery).toEqual({ status: 'delivered' });
    expect(attempts).toBe(1);
  });
});
