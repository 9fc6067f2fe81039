/**
 * Assignment modes (docs/ROUTING.md): `manual` (the Waiting queue, whoever
 * presses Reply), `round_robin` (the eligible agent offered a chat least
 * recently) and `least_busy` (the eligible agent holding the fewest chats).
 * The defaults of the account's routing settings, used while it has none.
 */

export const ROUTING_MODES = ['manual', 'round_robin', 'least_busy'] as const;
export type RoutingMode = (typeof ROUTING_MODES)[number];
/** The modes that offer chats to agents. */
export type OfferingMode = Exclude<RoutingMode, 'manual'>;

export const DEFAULT_OFFER_TIMEOUT_SECONDS = 30;
export const MIN_OFFER_TIMEOUT_SECONDS = 5;
export const MAX_OFFER_TIMEOUT_SECONDS = 600;
export const DEFAULT_EVERYONE_AFTER_SECONDS = 60;
export const MAX_EVERYONE_AFTER_SECONDS = 24 * 3600;
/** A chat nobody eligible could be offered is looked at again this often (someone may come Online). */
export const NOBODY_RETRY_MS = 5000;

export function isRoutingMode(value: unknown): value is RoutingMode {
  return typeof value === 'string' && (ROUTING_MODES as readonly string[]).includes(value);
}

/** A stored mode (a text column), manual when it is not one this server knows. */
export function storedMode(value: string | null | undefined): RoutingMode {
  return isRoutingMode(value) ? value : 'manual';
}

export function isOffering(mode: RoutingMode): mode is OfferingMode {
  return mode !== 'manual';
}
