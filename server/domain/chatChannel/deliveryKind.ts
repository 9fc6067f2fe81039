/**
 * The chat channel as a delivery kind: agents' messages and typing posted to
 * the customer endpoint (docs/CHAT-CHANNEL.md, the spec's Limits).
 * - Retries: 3 attempts 3 s apart, anchored to the row's creation (0, 3, 6 s),
 *   each with at most 2.5 s, so the last one is judged by 8.5 s and `failed`
 *   is recorded before the spec's 9 s even when an attempt starts a little late.
 * - A 2xx answer carrying an error object `{"error":{"code","message"}}`, or
 *   a `result` that says it failed (`{"result":"fail"}`), is a refusal: final,
 *   not retried, its message shown to the agent (refusalOf).
 * - A final attempt (delivered or failed) of a message sets the message's
 *   `delivery` status and records `message.updated` in the same transaction;
 *   a redelivered message shows `pending` again.
 */
import type { Tx } from '../../db/database.js';
import type { Delivery } from '../../db/schema.js';
import { recordEvent } from '../../events/outbox.js';
import { presentMessage } from '../../presenters/message.js';
import type { DeliveryKindModule } from '../../webhooks/kind.js';
import { parseUntrustedJson } from '../../lib/untrustedJson.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A JSON string answer holding a JSON object's text, read as that object (depth-limited); anything else: null. */
function parsedString(text: string): unknown {
  if (!text.trim().startsWith('{')) return null;
  try {
    return parseUntrustedJson(text);
  } catch {
    return null;
  }
}

/** `result` values that say the customer system did not take the message (compared case-insensitively). */
const FAILED_RESULTS = new Set(['fail', 'failed', 'failure', 'error', 'false']);

/**
 * The refusal sentence of a chat-channel answer, or null when it is not one.
 * The spec's answer is `{"result":"ok"}` or `{"error":{code,message}}`; a
 * `result` that says it failed (`fail`, `failure`, `error`, false …) is a
 * refusal too, with its `reason`, `message` or `error` as the reason. Real
 * clients answer otherwise as well, and those stay delivered: no `result` at
 * all (`{ok:true}`), an empty body, `success`, or a JSON string holding such
 * an object (read once more).
 */
export function refusalOf(answer: unknown): string | null {
  const body = typeof answer === 'string' ? parsedString(answer) : answer;
  if (!isObject(body)) return null;
  const result = typeof body.result === 'string' ? body.result.trim().toLowerCase() : body.result === false ? 'false' : null;
  if (result !== null && FAILED_RESULTS.has(result)) {
    const reason = [body.reason, body.message, body.error].find((r): r is string => typeof r === 'string' && r.trim() !== '');
    return reason ?? `The customer system answered result "${String(body.result)}" without a reason.`;
  }
  const e = body.error;
  if (typeof e === 'string' && e.trim() !== '') return e;
  if (!isObject(e)) return null;
  if (typeof e.message === 'string' && e.message.trim() !== '') return e.message;
  if (typeof e.code === 'number' || (typeof e.code === 'string' && e.code !== '')) return `The customer system refused the message (code ${e.code}).`;
  return null;
}

/** Sets a message's delivery status and records `message.updated` so agents see it live. */
export async function setMessageDelivery(
  tx: Tx,
  delivery: Pick<Delivery, 'account_id' | 'message_id'>,
  status: 'pending' | 'delivered' | 'failed',
  error: string | null,
  now: number,
): Promise<void> {
  if (delivery.message_id === null) return;
  const message = await tx
    .updateTable('messages')
    .set({ delivery_status: status, delivery_error: error })
    .where('id', '=', delivery.message_id)
    .where('account_id', '=', delivery.account_id)
    .returningAll()
    .executeTakeFirst();
  if (!message) return;
  const chat = await tx.selectFrom('chats').select('channel_id').where('id', '=', message.chat_id).executeTakeFirst();
  await recordEvent(
    tx,
    {
      accountId: delivery.account_id,
      type: 'message.updated',
      chatId: message.chat_id,
      channelId: chat?.channel_id ?? null,
      data: { message: presentMessage(message) },
    },
    now,
  );
}

export const chatChannelDeliveries: DeliveryKindModule<'chat_channel'> = {
  kind: 'chat_channel',
  policy: { maxAttempts: 3, delaysMs: [3000, 3000], jitter: 0, timeoutMs: 2500, deadlineMs: 8500, fromCreation: true },
  refusal: (_row, result) => refusalOf(result.body),
  settlesMore: (row, d) => d.status !== 'pending' && row.message_id !== null,
  settle: (tx, row, d, now) => setMessageDelivery(tx, row, d.status, d.status === 'failed' ? d.messageError : null, now),
  redelivered: (tx, row, now) => setMessageDelivery(tx, row, 'pending', null, now),
};
