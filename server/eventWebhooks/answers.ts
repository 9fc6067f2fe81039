/**
 * Reading an event-webhook receiver's answer (spec C, docs/EVENTS.md). The body
 * is what send.ts parsed as JSON whatever its Content-Type; a JSON string
 * that wraps an object (`"{\"result\":\"ok\"}"`, what some libraries send) is
 * read as that object. `result` is compared case-insensitively.
 * - 'FAILURE' in a 2xx answer to chat_assigned, chat_finished, chat_updated
 *   or offline_message is a failure reported by the receiver: the delivery
 *   is recorded failed with the answer, and not retried (it would answer the
 *   same). A non-2xx answer is retried whatever its body (docs/EVENTS.md).
 * - What a delivered answer does, per event name: chat_accepted fills the
 *   agent's panel (acceptedAnswer.ts). A failing handler is logged and never
 *   changes the delivery's status.
 */
import type { AppContext } from '../context.js';
import type { Delivery } from '../db/schema.js';
import { parseUntrustedJson } from '../lib/untrustedJson.js';

/** `body` is the answer as readAnswer() gives it. */
export type AnswerHandler = (ctx: AppContext, delivery: Delivery, body: unknown) => Promise<void>;

/** The events whose answer is `{"result": "OK" | "FAILURE"}` (spec C). */
const RESULT_EVENTS = new Set(['chat_assigned', 'chat_finished', 'chat_updated', 'offline_message']);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The answer, with a JSON string that wraps an object read as that object (one level, depth-limited). */
export function readAnswer(body: unknown): unknown {
  if (typeof body !== 'string') return body;
  try {
    const inner = parseUntrustedJson(body);
    return isObject(inner) ? inner : body;
  } catch {
    return body;
  }
}

/** The answer's `result`, lower-cased and trimmed; null when it has none. */
export function resultOf(answer: unknown): string | null {
  return isObject(answer) && typeof answer.result === 'string' ? answer.result.trim().toLowerCase() : null;
}

/** The sentence of a failure the receiver reported in its (2xx) answer, or null when it reported none. */
export function reportedFailure(eventType: string, body: unknown): string | null {
  if (!RESULT_EVENTS.has(eventType)) return null;
  const answer = readAnswer(body);
  if (resultOf(answer) !== 'failure') return null;
  const result = isObject(answer) ? String(answer.result) : 'FAILURE';
  return `failure reported by the receiver (result "${result}")`;
}

const overrides = new Map<string, AnswerHandler>();

/** Replaces the handler of one event name while registered (tests); returns a function that removes it. */
export function registerAnswerHandler(eventType: string, handler: AnswerHandler): () => void {
  overrides.set(eventType, handler);
  return () => {
    if (overrides.get(eventType) === handler) overrides.delete(eventType);
  };
}

/** Runs the handler of the delivery's event name (an override first, else `handlers`), if any, on the answer. */
export async function onEventWebhookAnswer(
  ctx: AppContext,
  delivery: Delivery,
  body: unknown,
  handlers: Readonly<Record<string, AnswerHandler>>,
): Promise<void> {
  const handler = overrides.get(delivery.event_type) ?? (Object.hasOwn(handlers, delivery.event_type) ? handlers[delivery.event_type] : undefined);
  if (!handler) return;
  try {
    await handler(ctx, delivery, readAnswer(body));
  } catch (err) {
    ctx.log.error({ err, deliveryId: delivery.id, eventType: delivery.event_type }, 'event webhook answer handler failed');
  }
}
