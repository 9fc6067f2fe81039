/**
 * The one event of a call: call.updated, written in the transaction of every
 * change (created with status start, then each new status). Its data carries
 * the agent shape of the call and the visitor's id; the event-webhooks
 * subscriber turns it into call_event, agents' streams show it, and the
 * widget can tell its visitor (svc_onCallStart / svc_onCallEnd).
 */
import type { Tx } from '../../db/database.js';
import type { Call } from '../../db/schema.js';
import { recordEvent } from '../../events/outbox.js';
import { presentCall } from '../../presenters/call.js';

export async function recordCallUpdated(tx: Tx, call: Call, now: number): Promise<void> {
  await recordEvent(
    tx,
    {
      accountId: call.account_id,
      type: 'call.updated',
      chatId: call.chat_id,
      channelId: call.channel_id,
      data: { call: presentCall(call), visitor_id: call.visitor_id },
    },
    now,
  );
}
