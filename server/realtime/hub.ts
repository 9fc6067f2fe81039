/**
 * The realtime hub: the relay publishes every relayed event to it, sockets
 * subscribe per account. LocalHub fans out inside this process (the embedded
 * default); RedisHub (redisHub.ts) shares events between instances. The hub is
 * best effort: a socket that may have missed something catches up from the
 * events table (see feed.ts), so nothing here needs to be durable.
 */
import { EventEmitter } from 'node:events';
import type { RelayedEvent } from '../events/catalogue.js';

export type StreamEvent = RelayedEvent;

/** Call it to unsubscribe; `ready` resolves once live events are flowing (after it, nothing published is missed). */
export type Unsubscribe = (() => void) & { readonly ready: Promise<void> };

export function subscription(unsubscribe: () => void, ready: Promise<void>): Unsubscribe {
  return Object.assign(unsubscribe, { ready });
}

export interface RealtimeHub {
  /** Never rejects for a delivery problem (it logs): the relay must not stop on it. */
  publish(event: StreamEvent): Promise<void>;
  /**
   * Live events of one account, in publish order. onReset is called when the
   * hub may have dropped events (its connection to other instances came back):
   * the subscriber should catch up from the events table.
   */
  subscribe(accountId: number, fn: (e: StreamEvent) => void, onReset?: () => void): Unsubscribe;
  close(): Promise<void>;
}

/** Per-account listeners with isolation: one failing listener does not starve the others. */
export class Fanout {
  private readonly emitter = new EventEmitter();
  private readonly resets = new Set<() => void>();

  constructor(private readonly onListenerError: (err: unknown) => void) {
    this.emitter.setMaxListeners(0);
  }

  add(accountId: number, fn: (e: StreamEvent) => void, onReset?: () => void): () => void {
    const key = String(accountId);
    const safe = (e: StreamEvent): void => {
      try {
        fn(e);
      } catch (err) {
        this.onListenerError(err);
      }
    };
    this.emitter.on(key, safe);
    if (onReset) this.resets.add(onReset);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.emitter.off(key, safe);
      if (onReset) this.resets.delete(onReset);
    };
  }

  count(accountId: number): number {
    return this.emitter.listenerCount(String(accountId));
  }

  emit(event: StreamEvent): void {
    this.emitter.emit(String(event.account_id), event);
  }

  reset(): void {
    for (const fn of [...this.resets]) {
      try {
        fn();
      } catch (err) {
        this.onListenerError(err);
      }
    }
  }
}

/** In-process hub: publish() reaches the subscribers of this process synchronously. */
export class LocalHub implements RealtimeHub {
  private readonly fanout: Fanout;

  constructor(onListenerError: (err: unknown) => void = () => undefined) {
    this.fanout = new Fanout(onListenerError);
  }

  async publish(event: StreamEvent): Promise<void> {
    this.fanout.emit(event);
  }

  subscribe(accountId: number, fn: (e: StreamEvent) => void, onReset?: () => void): Unsubscribe {
    return subscription(this.fanout.add(accountId, fn, onReset), Promise.resolve());
  }

  async close(): Promise<void> {
    // Nothing to release: subscribers unsubscribe when their sockets close.
  }
}
