/**
 * Where an account's relayed events stand: the newest the relay has handed
 * on (a socket without a cursor starts there) and the retention mark
 * (eventMarks.ts). The realtime feed starts every socket from it, the widget
 * session hands the head out (domain/widget/widgetState.ts).
 */
import type { Executor } from '../db/database.js';
import { RELAYED_THROUGH } from './relayClaim.js';

export interface FeedPosition {
  /** Where a socket without a cursor starts: skips nothing committed before it was read. */
  head: number;
  /** The account's retention mark: a cursor below it missed deleted events. */
  deletedThrough: number;
}

/** Both in one statement (every socket and widget session starts with it). */
export async function feedPosition(db: Executor, accountId: number): Promise<FeedPosition> {
  const row = await db
    .selectNoFrom((eb) => [
      // Newest first on events_account_id, from the relay's cursor down.
      eb.selectFrom('events').select('id').where('account_id', '=', accountId).where('id', '<=', RELAYED_THROUGH).orderBy('id', 'desc').limit(1).as('relayed'),
      eb.selectFrom('event_retention').select('deleted_through').where('account_id', '=', accountId).as('mark'),
    ])
    .executeTakeFirst();
  const deleted = Number(row?.mark ?? 0);
  // When retention deleted every event of the account, the head is the mark, not 0 (a cursor below the mark is stale).
  return { head: Math.max(Number(row?.relayed ?? 0), deleted), deletedThrough: deleted };
}

/** The cursor a socket without one starts from (the widget session hands it out). */
export async function relayedHead(db: Executor, accountId: number): Promise<number> {
  return (await feedPosition(db, accountId)).head;
}
