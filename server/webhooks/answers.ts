/**
 * What happens with an event-webhook receiver's answer: handlers keyed by the
 * spec's event name (chat_accepted → custom_data, contact_info, crm_link …),
 * registered by the event-webhooks work. The deliverer calls
 * onEventWebhookAnswer() once per delivered attempt, after recording it; with
 * no handler for the event nothing happens. A failing handler is logged and
 * never changes the delivery's status.
 */
import type { AppContext } from '../context.js';
import type { Delivery } from '../db/schema.js';

/** `body` is the answer parsed as JSON whatever its Content-Type (undefined when not JSON). */
export type AnswerHandler = (ctx: AppContext, delivery: Delivery, body: unknown) => Promise<void>;

const handlers = new Map<string, AnswerHandler>();

/** Registers the handler of one event name; returns a function that removes it. */
export function registerAnswerHandler(eventType: string, handler: AnswerHandler): () => void {
  handlers.set(eventType, handler);
  return () => {
    if (handlers.get(eventType) === handler) handlers.delete(eventType);
  };
}

export async function onEventWebhookAnswer(ctx: AppContext, delivery: Delivery, body: unknown): Promise<void> {
  const handler = handlers.get(delivery.event_type);
  if (!handler) return;
  try {
    await handler(ctx, delivery, body);
  } catch (err) {
    ctx.log.error({ err, deliveryId: delivery.id, eventType: delivery.event_type }, 'event webhook answer handler failed');
  }
}
