/**
 * Channels kept in this process for the chat channel's hot path (docs/CHAT-CHANNEL.md), by
 * public id, each for at most CHANNEL_TTL_MS after the load that read it began.
 * This process's own changes evict their channel as soon as they commit
 * (domain/channels/*), so here a rotated secret or a deleted channel is refused
 * by the very next request; a change made by another instance evicts it here as
 * its channel.changed event arrives (evictChannel, wired in app.ts), and the TTL
 * bounds what a lost event could leave. Misses are not kept: a channel created
 * anywhere works at once.
 * Concurrent misses of one id share one load, and a load that an eviction
 * overtook answers its callers but is not kept (its row may predate the change).
 */
import type { Channel } from '../../db/schema.js';

/** How long another instance's change may go unseen here. */
export const CHANNEL_TTL_MS = 1000;
/** The oldest entry is dropped beyond this. */
export const MAX_CHANNELS = 10_000;

export class ChannelCache {
  private readonly entries = new Map<string, { channel: Channel; loadedAt: number }>();
  private readonly loading = new Map<string, Promise<Channel | undefined>>();
  /** Public id of each kept channel, by channel id: channel.changed names the id. */
  private readonly publicIds = new Map<number, string>();
  /** Accounts whose channel changes this cache follows (`watch` called once for each). */
  private readonly watched = new Set<number>();

  constructor(
    private readonly load: (publicId: string) => Promise<Channel | undefined>,
    private readonly o: { ttlMs: number; maxEntries: number } = { ttlMs: CHANNEL_TTL_MS, maxEntries: MAX_CHANNELS },
    /** Called once per account of a kept channel, to follow that account's channel changes. */
    private readonly watch: (accountId: number) => void = () => undefined,
  ) {}

  /** The channel with this public id, loaded when not kept or older than the TTL at `now`. */
  get(publicId: string, now: number): Promise<Channel | undefined> {
    const entry = this.entries.get(publicId);
    // A clock that went back counts as expired too.
    if (entry && now >= entry.loadedAt && now - entry.loadedAt < this.o.ttlMs) return Promise.resolve(entry.channel);
    return this.loading.get(publicId) ?? this.fill(publicId, now);
  }

  /** Forget the id (its channel changed or is gone), including a load in flight. */
  evict(publicId: string): void {
    const entry = this.entries.get(publicId);
    if (entry) this.publicIds.delete(entry.channel.id);
    this.entries.delete(publicId);
    this.loading.delete(publicId);
  }

  /**
   * The channel with this id changed (channel.changed, from any instance). Loads
   * in flight are not kept either: one of them may have read the row before the change.
   */
  evictChannel(channelId: number): void {
    const publicId = this.publicIds.get(channelId);
    if (publicId !== undefined) this.evict(publicId);
    this.loading.clear();
  }

  /** Changes may have been missed (the hub lost its connection): nothing kept is trusted. */
  clear(): void {
    this.entries.clear();
    this.loading.clear();
    this.publicIds.clear();
  }

  private fill(publicId: string, now: number): Promise<Channel | undefined> {
    const pending: Promise<Channel | undefined> = this.load(publicId)
      .then((channel) => {
        if (this.loading.get(publicId) !== pending) return channel;
        if (channel) this.keep(publicId, channel, now);
        else this.entries.delete(publicId); // an expired entry of a channel now gone
        return channel;
      })
      .finally(() => {
        if (this.loading.get(publicId) === pending) this.loading.delete(publicId);
      });
    this.loading.set(publicId, pending);
    return pending;
  }

  private keep(publicId: string, channel: Channel, loadedAt: number): void {
    this.evict(publicId); // re-inserted last: the Map's order is the order of loads
    if (this.entries.size >= this.o.maxEntries) this.evict(this.entries.keys().next().value!);
    this.entries.set(publicId, { channel, loadedAt });
    this.publicIds.set(channel.id, publicId);
    if (!this.watched.has(channel.account_id)) {
      this.watched.add(channel.account_id);
      this.watch(channel.account_id);
    }
  }
}
