/**
 * Which events an agent's stream shows, the same rule as the chat API
 * (readableChannelIds): chats of the channels the agent works, every channel
 * for administrators; plus the account's events that belong to no chat
 * (agent.updated …); never another account's.
 *
 * The rule follows changes at once. A channel change (created, its agents
 * changed, deleted) records a channel.changed event, and a change of the agent
 * itself (its role) an agent.updated; every socket sees them in its feed, in
 * event order, on every instance (the hub relays them like any event, a
 * catch-up replays them), and each marks its agent's rule to be read again
 * before the next event that needs it. So every event after the change is
 * shown by the rule after it: a new channel's first chat, an added agent's
 * next message, and nothing more of a channel to an agent just removed from it.
 * As a backstop (a change made straight in the store) the rule is also read
 * again when older than a few seconds, and when an event names a channel not
 * in it.
 *
 * One agent's rule is shared by all its sockets in this process, and read by
 * one query set at a time however many of them ask: an agent signed in on a
 * thousand tabs (or a thousand sockets of one integration) no longer reads it
 * a thousand times before one event reaches them all; a change seen by all of
 * them marks the rule once (by the event's id). Under traffic it is read
 * again in the background once half its age is used, so an event seldom waits
 * for the read; no event is ever shown by a rule older than MAX_AGE_MS.
 */
import type { Executor } from '../db/database.js';
import type { Agent } from '../db/schema.js';
import { readableChannelIds } from '../domain/chats/loadChat.js';
import type { StreamEvent } from './hub.js';

const MAX_AGE_MS = 5000;
/** Past this age an event still uses the rule, and a read starts in the background. */
const REFRESH_AHEAD_MS = MAX_AGE_MS / 2;
/** An unknown channel triggers a new read at most this often (a replay of another agent's channel is not a query per event). */
const UNKNOWN_RETRY_MS = 1000;
/** The rules before the latest changes, by event id, for the sockets of the agent that see a change after another did. */
const KEPT_BEFORE = 16;

/** The channels a rule shows: null for every channel of the account; undefined before the rule was first read. */
type Shown = Set<number> | null | undefined;

/** One agent's rule in this process. */
class SharedRule {
  /** null: every channel of the account. */
  channels: Set<number> | null = null;
  readAt = 0;
  /** Sockets using it: the rule is dropped with the last. */
  users = 0;
  /** The newest event that invalidated the rule: a socket seeing it (or an older one) after another does not mark it again. */
  private invalidatedBy = 0;
  /** What the rule showed before each of the latest changes (event id → channels). */
  private readonly before = new Map<number, Shown>();
  /** Bumped by invalidate(): a read begun before the bump does not make the rule fresh. */
  private generation = 0;
  private freshGeneration = -1;
  private reading: { generation: number; done: Promise<void> } | null = null;

  constructor(
    private readonly db: Executor,
    private readonly agent: Agent,
  ) {}

  get stale(): boolean {
    return this.freshGeneration !== this.generation;
  }

  /**
   * Marks the rule to be read again; by an event, once for all the sockets
   * that see it: an event at or below the newest that did is already covered
   * (the read it causes comes after that one committed, so after this one).
   */
  invalidate(eventId?: number): void {
    if (eventId !== undefined) {
      if (eventId <= this.invalidatedBy) return;
      this.invalidatedBy = eventId;
      this.before.set(eventId, this.readAt === 0 ? undefined : this.channels);
      if (this.before.size > KEPT_BEFORE) this.before.delete(this.before.keys().next().value as number);
    }
    this.generation += 1;
  }

  /** Whether the rule showed the channel before the change of event `eventId` (as far as this process knows). */
  showedBefore(eventId: number, channelId: number): boolean {
    const shown = this.before.has(eventId) ? this.before.get(eventId) : this.readAt === 0 ? undefined : this.channels;
    return shown === null || (shown !== undefined && shown.has(channelId));
  }

  /** Reads the rule, unless a read begun since the last invalidate() is in flight: then waits for that one. */
  refresh(): Promise<void> {
    if (this.reading?.generation === this.generation) return this.reading.done;
    const generation = this.generation;
    const before = this.reading?.done.catch(() => undefined) ?? Promise.resolve();
    const done = before.then(() => this.read(generation));
    const reading = { generation, done };
    this.reading = reading;
    void done.then(
      () => this.reading === reading && (this.reading = null),
      () => this.reading === reading && (this.reading = null),
    );
    return done;
  }

  private async read(generation: number): Promise<void> {
    const me = await this.db.selectFrom('agents').selectAll().where('id', '=', this.agent.id).executeTakeFirst();
    const ids = await readableChannelIds(this.db, me ?? { ...this.agent, role: 'agent' });
    this.channels = ids === null ? null : new Set(ids);
    this.readAt = Date.now();
    this.freshGeneration = generation;
  }
}

/**
 * The rules of the agents with a socket open in this process, one per agent
 * however many sockets it has (AppContext.channelRules).
 */
export class ChannelRules {
  readonly byAgent = new Map<number, SharedRule>();
  constructor(readonly db: Executor) {}

  /** What one socket of `agent` may see: the agent's shared rule, released with the socket. */
  for(agent: Agent): ChannelVisibility {
    return new ChannelVisibility(this, agent);
  }
}

export class ChannelVisibility {
  private readonly rule: SharedRule;
  private released = false;

  constructor(
    private readonly rules: ChannelRules,
    private readonly agent: Agent,
  ) {
    let rule = rules.byAgent.get(agent.id);
    if (!rule) rules.byAgent.set(agent.id, (rule = new SharedRule(rules.db, agent)));
    rule.users += 1;
    this.rule = rule;
  }

  /**
   * Marks the rule to be read again before the next event that needs it
   * (every socket of the agent); `eventId`, the change's event, makes the
   * sockets that see it after the first one not mark it again.
   */
  invalidate(eventId?: number): void {
    this.rule.invalidate(eventId);
  }

  /**
   * A channel change (channel.changed): the rule is read again, and the event
   * shown when the agent sees the channel after it or saw it before (so a
   * removed agent learns of it too; administrators see them all).
   */
  async channelChanged(event: StreamEvent, channelId: number): Promise<boolean> {
    if (event.account_id !== this.agent.account_id) return false;
    this.rule.invalidate(event.id);
    const before = this.rule.showedBefore(event.id, channelId);
    return (await this.allows(event)) || before;
  }

  /** The socket closed: the agent's rule is dropped with its last socket. */
  release(): void {
    if (this.released) return;
    this.released = true;
    this.rule.users -= 1;
    const rules = this.rules.byAgent;
    if (this.rule.users === 0 && rules.get(this.agent.id) === this.rule) rules.delete(this.agent.id);
  }

  async allows(event: StreamEvent): Promise<boolean> {
    if (event.account_id !== this.agent.account_id) return false;
    if (event.chat_id === null && event.channel_id === null) return true;
    const rule = this.rule;
    const age = Date.now() - rule.readAt;
    const unknown = event.channel_id !== null && rule.channels !== null && !rule.channels.has(event.channel_id);
    if (rule.stale || age > MAX_AGE_MS || (unknown && age > UNKNOWN_RETRY_MS)) await rule.refresh();
    else if (age > REFRESH_AHEAD_MS) rule.refresh().catch(() => undefined); // a failed read is retried by the next event
    if (rule.channels === null) return true;
    // A chat event without its channel is shown to administrators only.
    return event.channel_id !== null && rule.channels.has(event.channel_id);
  }
}
