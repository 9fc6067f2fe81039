/**
 * Event types given up on (eventWebhooks/giveUp.ts), for admins: the list,
 * with the receiver's answer that made Parley give up, and sending one type
 * again (its next events are delivered; nothing skipped meanwhile is resent).
 */
import type { AppContext } from '../../context.js';
import { clearGivenUp, listGivenUp } from '../../eventWebhooks/giveUp.js';
import { assertAdmin, type Actor } from '../agents/actor.js';
import type { GivenUpRow } from '../../model/settings.js';

export type { GivenUpRow } from '../../model/settings.js';

export async function listGivenUpEventTypes(ctx: AppContext, input: { actor: Actor }): Promise<GivenUpRow[]> {
  assertAdmin(input.actor);
  return listGivenUp(ctx.db, input.actor.account_id);
}

/** Sends one given-up event type again; returns the types still given up on. */
export async function resumeEventType(ctx: AppContext, input: { actor: Actor; eventType: string }): Promise<GivenUpRow[]> {
  assertAdmin(input.actor);
  await clearGivenUp(ctx.db, input.actor.account_id, input.eventType);
  return listGivenUp(ctx.db, input.actor.account_id);
}
