/**
 * The one list of delivery kinds: what happens after an attempt of each
 * settles (its retry policy, how its answers are read, what a final attempt
 * changes, what a delivered answer does) lives in the kind's own module; the
 * queue, the deliverer and the delivery log look kinds up here and import
 * none of them. What a kind is: kind.ts.
 */
import { chatChannelDeliveries } from '../domain/chatChannel/deliveryKind.js';
import { eventWebhookDeliveries } from '../eventWebhooks/deliveryKind.js';
import { mailDeliveries } from '../mail/deliveryKind.js';
import { webPushDeliveries } from '../push/deliveryKind.js';
import type { DeliveryKind, DeliveryKindModule, DeliveryPolicy } from './kind.js';

export type { DeliveryKind, DeliveryPolicy };

/** Every delivery kind, one module each (the compiler wants one for every kind the deliveries table knows). */
export const deliveryKinds: { readonly [K in DeliveryKind]: DeliveryKindModule<K> } = {
  chat_channel: chatChannelDeliveries,
  event_webhook: eventWebhookDeliveries,
  mail: mailDeliveries,
  web_push: webPushDeliveries,
};

export function kindOf(kind: DeliveryKind): DeliveryKindModule {
  return deliveryKinds[kind];
}

export function policyFor(kind: DeliveryKind): DeliveryPolicy {
  return deliveryKinds[kind].policy;
}
