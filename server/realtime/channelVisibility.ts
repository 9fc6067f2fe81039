/**
 * Which events an agent's stream shows, the same rule as the chat API
 * (readableChannelIds): chats of the channels the agent works, every channel
 * for administrators; plus the account's events that belong to no chat
 * (agent.updated …); never another account's. The rule is cached briefly and
 * read again when older than a few seconds, when an event names a channel not
 * in it (a channel just created or assigned), or after an agent.updated (role
 * or assignment changes).
 */
import type { Executor } from '../db/database.js';
import type { Agent } from '../db/schema.js';
import { readableChannelIds } from '../domain/chats/loadChat.js';
import type { StreamEvent } from './hub.js';

const MAX_AGE_MS = 5000;
/** An unknown channel triggers a new read at most this often (a replay of another agent's channel is not a query per event). */
const UNKNOWN_RETRY_MS = 1000;

export class ChannelVisibility {
  /** null: every channel of the account. */
  private channels: Set<number> | null = null;
  private readAt = 0;
  private stale = true;

  constructor(
    private readonly db: Executor,
    private readonly agent: Agent,
  ) {}

  invalidate(): void {
    this.stale = true;
  }

  async allows(event: StreamEvent): Promise<boolean> {
    if (event.account_id !== this.agent.account_id) return false;
    if (event.chat_id === null && event.channel_id === null) return true;
    const age = Date.now() - this.readAt;
    const unknown = event.channel_id !== null && this.channels !== null && !this.channels.has(event.channel_id);
    if (this.stale || age > MAX_AGE_MS || (unknown && age > UNKNOWN_RETRY_MS)) await this.refresh();
    if (this.channels === null) return true;
    // A chat event without its channel is shown to administrators only.
    return event.channel_id !== null && this.channels.has(event.channel_id);
  }

  private async refresh(): Promise<void> {
    const me = await this.db.selectFrom('agents').selectAll().where('id', '=', this.agent.id).executeTakeFirst();
    const ids = await readableChannelIds(this.db, me ?? { ...this.agent, role: 'agent' });
    this.channels = ids === null ? null : new Set(ids);
    this.readAt = Date.now();
    this.stale = false;
  }
}
