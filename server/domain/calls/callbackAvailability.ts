/**
 * Whether a visitor may ask for a callback now (svc_api.isCallbackEnabled,
 * startCall): "Callback disabled" until an admin enables callbacks;
 * "Callback unavaiable" (the spec's spelling, kept exactly) when no balance is
 * left, outside the configured hours, or while the visitor has an active call.
 */
import type { Executor } from '../../db/database.js';
import type { Call } from '../../db/schema.js';
import { isCallbackOpen } from '../settings/callbackHours.js';
import { callbackOf, settingsOf } from '../settings/getSettings.js';
import type { CallbackSettings } from '../settings/settingsRow.js';

export const CALLBACK_DISABLED = 'Callback disabled';
export const CALLBACK_UNAVAILABLE = 'Callback unavaiable';

export type CallbackAvailabilityResult = { result: 'ok' } | { result: 'fail'; reason: typeof CALLBACK_DISABLED | typeof CALLBACK_UNAVAILABLE };

/** A call in one of these is still going: the visitor may not ask for another. */
export const ACTIVE_CALL_STATUSES: readonly Call['status'][] = ['start', 'agent_connected', 'client_connected'];
export const FINISHED_CALL_STATUSES: readonly Call['status'][] = ['end', 'error'];

export interface AvailabilityInput {
  accountId: number;
  /** The visitor asking; without one the active-call rule is not checked. */
  visitorId?: number | null;
  /** Epoch milliseconds (ctx.clock()). */
  now: number;
}

export async function hasActiveCall(db: Executor, accountId: number, visitorId: number): Promise<boolean> {
  const row = await db
    .selectFrom('calls')
    .select('id')
    .where('account_id', '=', accountId)
    .where('visitor_id', '=', visitorId)
    .where('status', 'in', [...ACTIVE_CALL_STATUSES])
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** The availability and the callback settings it was judged on (requestCallback needs both). */
export async function judgeAvailability(
  db: Executor,
  input: AvailabilityInput,
): Promise<{ availability: CallbackAvailabilityResult; callback: CallbackSettings }> {
  const callback = callbackOf(await settingsOf(db, input.accountId, input.now));
  const fail = (reason: typeof CALLBACK_DISABLED | typeof CALLBACK_UNAVAILABLE) => ({ availability: { result: 'fail' as const, reason }, callback });
  if (!callback.enabled) return fail(CALLBACK_DISABLED);
  if (!(callback.balance_seconds > 0)) return fail(CALLBACK_UNAVAILABLE);
  if (!isCallbackOpen(callback, new Date(input.now))) return fail(CALLBACK_UNAVAILABLE);
  if (input.visitorId != null && (await hasActiveCall(db, input.accountId, input.visitorId))) return fail(CALLBACK_UNAVAILABLE);
  return { availability: { result: 'ok' }, callback };
}

export async function callbackAvailability(db: Executor, input: AvailabilityInput): Promise<CallbackAvailabilityResult> {
  return (await judgeAvailability(db, input)).availability;
}
