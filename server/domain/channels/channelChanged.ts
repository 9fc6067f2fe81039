/**
 * The event of a channel change (channel.changed), recorded in the change's
 * transaction: the relay hands it to every instance's hub, and each open agent
 * stream reads its channel rule again before its next event
 * (realtime/channelVisibility.ts), so a new channel, an added agent or a
 * removed one takes effect on open streams at once, on every instance.
 */
import type { Tx } from '../../db/database.js';
import type { ChannelChangedData } from '../../events/catalogue.js';
import { recordEvent } from '../../events/outbox.js';

export async function recordChannelChanged(tx: Tx, accountId: number, channelId: number, change: ChannelChangedData['change'], now: number): Promise<void> {
  // channel_id places the event: the stream shows it by the channel rule (before or after the change), never to others.
  await recordEvent(tx, { accountId, type: 'channel.changed', channelId, data: { channel_id: channelId, change } }, now);
}
