/**
 * Which events an agent's stream shows, the same rule as the chat API
 * (readableChannelIds): chats of the channels the agent works, every channel
 * for administrators; plus the account's events that belong to no chat
 * (agent.updated …); never another account's. The rule is cached briefly and
 * read again when older than a few seconds, when an event names a channel not
 * in it (a channel just created or assigned), or after an agent.updated (role
 * or assignment changes).
 *
 * One agent's rule is shared by all its sockets in this process, and read by
 * one query set at a time however many of them ask: an agent signed in on a
 * thousand tabs (or a thousand sockets of one integration) no longer reads it
 * a thousand times before one event reaches them all. Under traffic it is read
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

/** One agent's rule in this process. */
class SharedRule {
  /** null: every channel of the account. */
  channels: Set<number> | null = null;
  readAt = 0;
  /** Sockets using it: the rule is dropped with the last. */
  users = 0;
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

  invalidate(): void {
    this.generation += 1;
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

/** Per store (an app), per agent id. */
const shared = new WeakMap<Executor, Map<number, SharedRule>>();

export class ChannelVisibility {
  private readonly rule: SharedRule;
  private released = false;

  constructor(
    private readonly db: Executor,
    private readonly agent: Agent,
  ) {
    let rules = shared.get(db);
    if (!rules) shared.set(db, (rules = new Map<number, SharedRule>()));
    let rule = rules.get(agent.id);
    if (!rule) rules.set(agent.id, (rule = new SharedRule(db, agent)));
    rule.users += 1;
    this.rule = rule;
  }

  /** Marks the rule to be read again before the next event that needs it (every socket of the agent). */
  invalidate(): void {
    this.rule.invalidate();
  }

  /** The socket closed: the agent's rule is dropped with its last socket. */
  release(): void {
    if (this.released) return;
    this.released = true;
    this.rule.users -= 1;
    const rules = shared.get(this.db);
    if (this.rule.users === 0 && rules?.get(this.agent.id) === this.rule) rules.delete(this.agent.id);
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
