/**
 * A channel's availability after an event, computed once per (event, channel)
 * in this process however many visitor sockets of that channel see the event.
 * Every agent.updated of an account reaches every visitor socket of the
 * account; each used to query availability itself, so one agent's status
 * change cost as many queries as there were open visitor sockets. Now the
 * first socket to ask starts the query and the others share its answer (a
 * failed query is not kept: the next asker tries again). Recent answers are
 * kept by event id, so sockets replaying the same event share them too.
 */
import type { Db } from '../db/database.js';
import { isChannelAvailable } from '../domain/channels/access.js';
import type { Clock } from '../lib/time.js';

/** Answers kept: enough for every channel of a burst of status changes. */
const KEPT = 2000;

export class AvailabilityOnce {
  private readonly answers = new Map<string, Promise<boolean>>();

  constructor(
    private readonly db: Db,
    /** Working hours decide too: availability is as of this clock's now. */
    private readonly clock: Clock,
    /** Called once per query actually made (the parley_availability_checks_total metric). */
    private readonly counted: () => void = () => undefined,
  ) {}

  after(eventId: number, accountId: number, channelId: number): Promise<boolean> {
    const key = `${eventId}:${channelId}`;
    let answer = this.answers.get(key);
    if (!answer) {
      this.counted();
      answer = isChannelAvailable(this.db, accountId, channelId, this.clock());
      this.answers.set(key, answer);
      answer.catch(() => this.answers.delete(key));
      if (this.answers.size > KEPT) this.answers.delete(this.answers.keys().next().value as string);
    }
    return answer;
  }

  /** Availability now, not shared (a socket's first look). */
  now(accountId: number, channelId: number): Promise<boolean> {
    return isChannelAvailable(this.db, accountId, channelId, this.clock());
  }
}
