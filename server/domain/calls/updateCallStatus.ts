/**
 * A call's status changes: an agent reports agent_connected, client_connected,
 * end (with an optional http(s) record_url) or error (with an optional
 * reason); the call then names that agent. The first connected status starts
 * the clock; on end the seconds since then are charged against the callback
 * balance. A call that ended (end or error) never changes again: 409. Each
 * change records call.updated (→ stream frame, call_event webhook).
 * An agent may report the status of the calls it sees (queryCalls.ts: those
 * of the channels it works, of a channel with no agent_ids, or of no channel,
 * as chats); any other call is 404, like another account's.
 */
import type { Updateable } from 'kysely';
import type { AppContext } from '../../context.js';
import type { Tx } from '../../db/database.js';
import type { Call, CallsTable } from '../../db/schema.js';
import { AppError, invalid, notFound } from '../../errors/AppError.js';
import { commit } from '../../events/outbox.js';
import type { Actor } from '../agents/actor.js';
import { checkHttpUrl } from '../settings/urls.js';
import { FINISHED_CALL_STATUSES } from './callbackAvailability.js';
import { callSeconds, chargeCallBalance } from './chargeCallBalance.js';
import { providerFor } from './providers/index.js';
import { callVisibleTo } from './queryCalls.js';
import { recordCallUpdated } from './recordCallUpdated.js';

/** What the call operations (requestCallback, updateCallStatus, failCall) use of AppContext. */
export type CallsContext = Pick<AppContext, 'db' | 'store' | 'signals' | 'clock' | 'log'>;

export const CALL_STATUS_UPDATES = ['agent_connected', 'client_connected', 'end', 'error'] as const;
export type CallStatusUpdate = (typeof CALL_STATUS_UPDATES)[number];

const MAX_REASON = 500;

export interface UpdateCallStatusInput {
  actor: Actor;
  callId: number;
  /** One of CALL_STATUS_UPDATES; anything else is a 400. */
  status: string;
  /** Why the call failed: kept with status error only. */
  reason?: string | null;
  /** Link to the recording: kept with status end only; must be http(s). */
  record_url?: string | null;
}

interface Change {
  status: CallStatusUpdate;
  /** null: a change by the service itself (the agent stays as it was). */
  agentId: number | null;
  reason: string | null;
  recordUrl: string | null;
}

function readStatus(status: string): CallStatusUpdate {
  const found = CALL_STATUS_UPDATES.find((s) => s === status);
  if (!found) {
    throw invalid(`status must be one of ${CALL_STATUS_UPDATES.map((s) => `"${s}"`).join(', ')} (got "${String(status).slice(0, 40)}").`);
  }
  return found;
}

function readReason(reason: string | null | undefined): string | null {
  const text = reason?.trim() ?? '';
  if (text.length > MAX_REASON) throw invalid(`reason must be at most ${MAX_REASON} characters.`);
  return text === '' ? null : text;
}

function readRecordUrl(url: string | null | undefined): string | null {
  if (url === undefined || url === null || url.trim() === '') return null;
  return checkHttpUrl('record_url', url).url;
}

const isFinished = (status: Call['status']): boolean => FINISHED_CALL_STATUSES.includes(status);

function finishedError(call: Call): AppError {
  return new AppError('call_finished', `Call ${call.id} has already ended (status ${call.status}); its status can no longer change.`);
}

/** Applies one change inside a transaction; returns the call and whether anything changed. */
async function applyChange(tx: Tx, call: Call, change: Change, now: number, lock: boolean): Promise<{ call: Call; changed: boolean }> {
  if (isFinished(call.status)) throw finishedError(call);
  const agentId = change.agentId ?? call.agent_id;
  // The same report again (a retry) changes nothing and sends nothing.
  if (call.status === change.status && call.agent_id === agentId) return { call, changed: false };

  const set: Updateable<CallsTable> = { status: change.status, agent_id: agentId, updated_at: now };
  if ((change.status === 'agent_connected' || change.status === 'client_connected') && call.connected_at === null) set.connected_at = now;
  const finishing = change.status === 'end' || change.status === 'error';
  const seconds = callSeconds(call.connected_at, now);
  if (finishing) {
    set.ended_at = now;
    set.duration_seconds = seconds;
    set.reason = change.status === 'error' ? change.reason : null;
    set.record_url = change.status === 'end' ? change.recordUrl : null;
  }
  const updated = await tx
    .updateTable('calls')
    .set(set)
    .where('id', '=', call.id)
    .where('status', 'not in', [...FINISHED_CALL_STATUSES])
    .returningAll()
    .executeTakeFirst();
  if (!updated) {
    const current = await tx.selectFrom('calls').selectAll().where('id', '=', call.id).executeTakeFirstOrThrow();
    throw finishedError(current);
  }
  if (change.status === 'end') await chargeCallBalance(tx, { accountId: call.account_id, seconds, now, lock });
  await recordCallUpdated(tx, updated, now);
  return { call: updated, changed: true };
}

/** `actor`: the agent reporting (null: the service itself), who must see the call. */
async function changeCall(
  ctx: CallsContext,
  accountId: number,
  callId: number,
  change: Change,
  actor: Actor | null,
): Promise<{ call: Call; changed: boolean }> {
  const now = ctx.clock();
  const postgres = ctx.store.dialect === 'postgres';
  return commit(ctx.db, ctx.signals, async (tx) => {
    const call = await tx
      .selectFrom('calls')
      .selectAll()
      .where('id', '=', callId)
      .where('account_id', '=', accountId)
      .$if(postgres, (q) => q.forUpdate())
      .executeTakeFirst();
    if (!call || (actor && !(await callVisibleTo(tx, actor, call)))) throw notFound(`Call ${callId}`);
    return applyChange(tx, call, change, now, postgres);
  });
}

export async function updateCallStatus(ctx: CallsContext, input: UpdateCallStatusInput): Promise<Call> {
  const status = readStatus(input.status);
  const change: Change = {
    status,
    agentId: input.actor.id,
    reason: status === 'error' ? readReason(input.reason) : null,
    recordUrl: status === 'end' ? readRecordUrl(input.record_url) : null,
  };
  const { call, changed } = await changeCall(ctx, input.actor.account_id, input.callId, change, input.actor);
  const provider = providerFor(call.provider);
  if (changed && isFinished(call.status) && provider.cancel) {
    // The agent ended it: the provider stops whatever it still does for this call.
    await provider.cancel(call).catch((err: unknown) => ctx.log.error({ err, callId: call.id }, 'call provider could not cancel the call'));
  }
  return call;
}

/** The service itself ends a call with status error (e.g. its provider could not start it). */
export async function failCall(ctx: CallsContext, input: { accountId: number; callId: number; reason: string }): Promise<Call> {
  const change: Change = { status: 'error', agentId: null, reason: input.reason, recordUrl: null };
  return (await changeCall(ctx, input.accountId, input.callId, change, null)).call;
}
