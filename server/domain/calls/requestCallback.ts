/**
 * A visitor asks to be called back (svc_api.startCall → the widget's
 * POST /widget/api/<widget_id>/callback): the phone is normalised to E.164,
 * availability is judged, and the call (type callback, status start) is stored
 * with its call.updated event in one transaction. That event rings the agents
 * (stream) and sends call_event (status start; its agent is the one who
 * accepted the visitor's chat, if any). Afterwards the account's call
 * provider places the call; if it cannot, the call ends with status error.
 *
 * One active call per visitor holds under concurrency: the visitor row is
 * locked first (a no-op UPDATE, which holds the row on PostgreSQL; SQLite runs
 * one write transaction at a time), so a second request waits and then sees
 * the first call as active.
 */
import { sql } from 'kysely';
import type { Call } from '../../db/schema.js';
import { notFound } from '../../errors/AppError.js';
import { commit } from '../../events/outbox.js';
import { CALLBACK_UNAVAILABLE, judgeAvailability } from './callbackAvailability.js';
import { normalizePhone } from './normalizePhone.js';
import { providerFor } from './providers/index.js';
import { recordCallUpdated } from './recordCallUpdated.js';
import { failCall, type CallsContext } from './updateCallStatus.js';

export interface RequestCallbackInput {
  accountId: number;
  /** The visitor's channel (the widget channel it came from). */
  channelId: number;
  visitorId: number;
  /** The visitor's current chat, if any; an id that is not this visitor's chat is ignored. */
  chatId?: number | null;
  /** As the visitor typed it; normalised here. */
  phone: unknown;
}

/** `reason` is what startCall answers: a phone-format reason, "Callback disabled" or "Callback unavaiable". */
export type RequestCallbackResult = { result: 'ok'; call: Call } | { result: 'fail'; reason: string };

export async function requestCallback(ctx: CallsContext, input: RequestCallbackInput): Promise<RequestCallbackResult> {
  const phone = normalizePhone(input.phone);
  if (!phone.ok) return { result: 'fail', reason: phone.reason };
  const now = ctx.clock();

  const outcome = await commit(ctx.db, ctx.signals, async (tx) => {
    const visitor = await tx
      .updateTable('visitors')
      .set({ updated_at: sql<number>`updated_at` })
      .where('id', '=', input.visitorId)
      .where('account_id', '=', input.accountId)
      .where('channel_id', '=', input.channelId)
      .returning('id')
      .executeTakeFirst();
    if (!visitor) throw notFound('The visitor');
    const { availability, callback } = await judgeAvailability(tx, { accountId: input.accountId, visitorId: visitor.id, now });
    if (availability.result === 'fail') return availability;

    const chat =
      input.chatId == null
        ? undefined
        : await tx
            .selectFrom('chats')
            .select(['id', 'status', 'accepted_by'])
            .where('id', '=', input.chatId)
            .where('account_id', '=', input.accountId)
            .where('visitor_id', '=', visitor.id)
            .executeTakeFirst();
    const call = await tx
      .insertInto('calls')
      .values({
        account_id: input.accountId,
        channel_id: input.channelId,
        chat_id: chat?.id ?? null,
        visitor_id: visitor.id,
        // The agent already talking with the visitor is the call's agent until another one reports a status.
        agent_id: chat?.status === 'active' ? chat.accepted_by : null,
        type: 'callback',
        phone: phone.phone,
        status: 'start',
        reason: null,
        record_url: null,
        created_at: now,
        updated_at: now,
        ended_at: null,
        connected_at: null,
        duration_seconds: null,
        provider: callback.provider,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordCallUpdated(tx, call, now);
    return { result: 'ok' as const, call };
  });
  if (outcome.result === 'fail') return outcome;

  try {
    await providerFor(outcome.call.provider).startCall(outcome.call);
  } catch (err) {
    ctx.log.error({ err, callId: outcome.call.id, provider: outcome.call.provider }, 'call provider could not start the call');
    await failCall(ctx, { accountId: input.accountId, callId: outcome.call.id, reason: 'The call could not be started' });
    return { result: 'fail', reason: CALLBACK_UNAVAILABLE };
  }
  return outcome;
}
