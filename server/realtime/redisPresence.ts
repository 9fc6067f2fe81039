/**
 * Presence across instances, in Redis. Per agent, a sorted set of the instances
 * holding one of its sockets (score: when the entry expires, refreshed by a
 * heartbeat, so a crashed instance's entries lapse by themselves); per
 * deployment, a sorted set of agents with when they were last held. An agent is
 * gone when its instance set is empty and it was last held at least the grace
 * period ago; the check and the removal run in one script, so exactly one
 * instance claims it and never while another instance holds a socket.
 * Times come from Redis (TIME), so instance clocks need not agree. While
 * Redis is marked down after a failed check (redisCircuit.ts), claimGone
 * claims no one at once instead of waiting out the command timeout per tick;
 * holds and releases still go to Redis (nobody waits on them).
 */
import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { agentKey, parseAgentKey, type AgentRef, type Presence } from './presence.js';
import { closeRedis, connectRedis, waitReady } from './redis.js';
import { RedisCircuit } from './redisCircuit.js';

const NOW = `local t = redis.call('TIME') local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;
/** KEYS: agent set, agents; ARGV: instance, ttl ms, agent. */
const HOLD = `${NOW}
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]) * 2)
redis.call('ZADD', KEYS[2], now, ARGV[3])
return 1`;
/** KEYS: agent set, agents; ARGV: instance, agent. */
const RELEASE = `${NOW}
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('ZADD', KEYS[2], now, ARGV[2])
return 1`;
/** KEYS: agent set, agents; ARGV: agent, grace ms. */
const CLAIM = `${NOW}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) > 0 then return 0 end
local last = redis.call('ZSCORE', KEYS[2], ARGV[1])
if not last then return 0 end
if tonumber(last) > now - tonumber(ARGV[2]) then return 0 end
redis.call('ZREM', KEYS[2], ARGV[1])
return 1`;

export interface RedisPresenceOptions {
  graceMs: number;
  /** How long an instance's entry lives without a heartbeat. */
  ttlMs?: number;
}

export class RedisPresence implements Presence {
  /** This instance's identity in the agent sets. */
  readonly instance = crypto.randomUUID();
  private readonly held = new Map<string, number>();
  private readonly heartbeat: NodeJS.Timeout;
  private readonly ttlMs: number;
  private readonly graceMs: number;
  private readonly circuit: RedisCircuit;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly log: FastifyBaseLogger,
    options: RedisPresenceOptions,
  ) {
    this.graceMs = options.graceMs;
    this.ttlMs = options.ttlMs ?? 30_000;
    this.heartbeat = setInterval(() => this.refresh(), Math.floor(this.ttlMs / 3));
    this.heartbeat.unref();
    // Holds that failed while Redis was away are made again as soon as it is back.
    redis.on('ready', () => this.refresh());
    this.circuit = new RedisCircuit(redis, 'presence', log);
  }

  static async open(url: string, prefix: string, log: FastifyBaseLogger, options: RedisPresenceOptions): Promise<RedisPresence> {
    const redis = connectRedis(url, 'commands', log);
    await waitReady(redis, 5000);
    return new RedisPresence(redis, prefix, log, options);
  }

  opened(agent: AgentRef): void {
    const key = agentKey(agent);
    const count = (this.held.get(key) ?? 0) + 1;
    this.held.set(key, count);
    if (count === 1) this.run(HOLD, agent, [this.instance, String(this.ttlMs), key]);
  }

  closed(agent: AgentRef): void {
    const key = agentKey(agent);
    const count = (this.held.get(key) ?? 0) - 1;
    if (count > 0) {
      this.held.set(key, count);
      return;
    }
    this.held.delete(key);
    this.run(RELEASE, agent, [this.instance, key]);
  }

  async claimGone(): Promise<AgentRef[]> {
    return this.circuit.run(
      (redis) => this.claim(redis),
      (err) => {
        // Nobody is called gone while Redis cannot say (null: it is marked down).
        if (err !== null) throw err;
        return [];
      },
    );
  }

  private async claim(redis: Redis): Promise<AgentRef[]> {
    // Candidates by this clock, with a margin; the script decides by Redis's.
    const candidates = await redis.zrangebyscore(this.agentsKey(), '-inf', Date.now() - this.graceMs + 1000, 'LIMIT', 0, 200);
    const gone: AgentRef[] = [];
    for (const key of candidates) {
      const ref = parseAgentKey(key);
      if (!ref || this.held.has(key)) continue;
      const claimed = await redis.eval(CLAIM, 2, this.agentSetKey(ref), this.agentsKey(), key, String(this.graceMs));
      if (claimed === 1) gone.push(ref);
    }
    return gone;
  }

  async close(): Promise<void> {
    clearInterval(this.heartbeat);
    this.circuit.stop();
    // Sockets are closed before this; release whatever is left so others can decide.
    await Promise.allSettled(
      [...this.held.keys()].flatMap((key) => {
        const ref = parseAgentKey(key);
        return ref ? [this.redis.eval(RELEASE, 2, this.agentSetKey(ref), this.agentsKey(), this.instance, key)] : [];
      }),
    );
    this.held.clear();
    await closeRedis(this.redis);
  }

  private refresh(): void {
    for (const key of this.held.keys()) {
      const ref = parseAgentKey(key);
      if (ref) this.run(HOLD, ref, [this.instance, String(this.ttlMs), key]);
    }
  }

  private run(script: string, agent: AgentRef, args: string[]): void {
    this.redis.eval(script, 2, this.agentSetKey(agent), this.agentsKey(), ...args).catch((err: unknown) => {
      this.log.warn({ err: err instanceof Error ? err.message : String(err), agentId: agent.agentId }, 'presence update failed');
    });
  }

  private agentSetKey(agent: AgentRef): string {
    return `${this.prefix}presence:agent:${agentKey(agent)}`;
  }

  private agentsKey(): string {
    return `${this.prefix}presence:agents`;
  }
}
