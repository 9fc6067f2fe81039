/**
 * The realtime hub shared by instances through Redis pub/sub: one channel per
 * account (`<prefix>events:<account_id>`), a publisher connection and a
 * subscriber connection. This process subscribes to an account's channel while
 * one of its sockets listens to it. Every event goes through Redis, local
 * subscribers included, so all instances see one order (the relay's).
 *
 * Failure model: a publish that fails is logged and dropped (the relay goes
 * on); when the subscriber connection comes back after a drop, subscribers get
 * onReset and catch up from the events table. A publish that fails for want
 * of Redis marks the publisher down (redisCircuit.ts): later publishes are
 * dropped at once, so the relay does not wait out the command timeout per
 * batch, until Redis answers again; then subscribers catch up too. A socket
 * opened meanwhile does not wait for its SUBSCRIBE to be answered. Sockets
 * never lose an event, they may only get it late.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { decodeEvent } from '../events/catalogue.js';
import { Fanout, subscription, type RealtimeHub, type StreamEvent, type Unsubscribe } from './hub.js';
import { closeRedis, connectRedis, waitReady } from './redis.js';
import { RedisCircuit } from './redisCircuit.js';

export class RedisHub implements RealtimeHub {
  private readonly fanout: Fanout;
  /** Account channels this process is subscribed to, with the SUBSCRIBE round trip. */
  private readonly channels = new Map<number, Promise<void>>();
  private readonly circuit: RedisCircuit;
  private closed = false;

  private constructor(
    private readonly pub: Redis,
    private readonly sub: Redis,
    private readonly prefix: string,
    private readonly log: FastifyBaseLogger,
  ) {
    this.fanout = new Fanout((err) => log.error({ err }, 'realtime subscriber failed'));
    sub.on('message', (channel: string, message: string) => this.onMessage(channel, message));
    // (Re)connected: ioredis resubscribes by itself, but what was published
    // meanwhile is gone. Subscribers catch up (none yet at the first connect).
    sub.on('ready', () => this.fanout.reset());
    this.circuit = new RedisCircuit(pub, 'realtime publish', log);
    // Publishes were dropped while Redis was down (a frozen Redis keeps the subscriber connected, so no 'ready' above).
    this.circuit.whenUp(() => this.fanout.reset());
  }

  static async open(url: string, prefix: string, log: FastifyBaseLogger, readyTimeoutMs = 5000): Promise<RedisHub> {
    const hub = new RedisHub(connectRedis(url, 'commands', log), connectRedis(url, 'subscriber', log), prefix, log);
    const [pubReady, subReady] = await Promise.all([waitReady(hub.pub, readyTimeoutMs), waitReady(hub.sub, readyTimeoutMs)]);
    if (!pubReady || !subReady) log.warn('redis is not reachable yet; realtime events will flow once it is');
    return hub;
  }

  channelOf(accountId: number): string {
    return `${this.prefix}events:${accountId}`;
  }

  async publish(event: StreamEvent): Promise<void> {
    if (this.closed) return;
    await this.circuit.run(
      async (pub) => {
        await pub.publish(this.channelOf(event.account_id), JSON.stringify(event));
      },
      (err) => {
        // null: dropped unsent while Redis is marked down (the circuit logged that once).
        if (err !== null) this.log.warn({ err: errorMessage(err), eventId: event.id }, 'realtime publish failed; sockets will catch up from the store');
      },
    );
  }

  subscribe(accountId: number, fn: (e: StreamEvent) => void, onReset?: () => void): Unsubscribe {
    const remove = this.fanout.add(accountId, fn, onReset);
    let ready = this.channels.get(accountId);
    if (!ready) {
      ready = this.sub.subscribe(this.channelOf(accountId)).then(
        () => undefined,
        (err: unknown) => this.log.warn({ err: errorMessage(err), accountId }, 'redis subscribe failed'),
      );
      this.channels.set(accountId, ready);
    }
    // While Redis is marked down no publish is coming to miss: the socket need not wait for SUBSCRIBE's answer (it
    // catches up from the store, and again when Redis is back).
    const settled = this.circuit.isDown ? Promise.resolve() : ready;
    return subscription(() => {
      remove();
      if (this.fanout.count(accountId) > 0 || this.closed) return;
      this.channels.delete(accountId);
      this.sub.unsubscribe(this.channelOf(accountId)).catch(() => undefined);
    }, settled);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.circuit.stop();
    await Promise.all([closeRedis(this.pub), closeRedis(this.sub)]);
  }

  private onMessage(channel: string, message: string): void {
    if (!channel.startsWith(`${this.prefix}events:`)) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(message);
    } catch {
      this.log.warn({ channel }, 'ignoring a malformed realtime message');
      return;
    }
    const event = fromWire(parsed);
    if (!event) return;
    if (channel !== this.channelOf(event.account_id)) return;
    this.fanout.emit(event);
  }
}

/** A published event read back: its position checked, its payload decoded by the catalogue; null when it is not one. */
function fromWire(value: unknown): StreamEvent | null {
  if (typeof value !== 'object' || value === null) return null;
  const field = (name: string): unknown => Reflect.get(value, name);
  const [id, account_id, chat_id, channel_id, seq, created_at, type] = ['id', 'account_id', 'chat_id', 'channel_id', 'seq', 'created_at', 'type'].map(field);
  if (typeof id !== 'number' || typeof account_id !== 'number' || typeof type !== 'string') return null;
  const position = {
    id,
    account_id,
    chat_id: numberOrNull(chat_id),
    channel_id: numberOrNull(channel_id),
    seq: numberOrNull(seq),
    created_at: Number(created_at),
  };
  return decodeEvent(position, type, field('data'));
}

const numberOrNull = (v: unknown): number | null => (typeof v === 'number' ? v : null);

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
