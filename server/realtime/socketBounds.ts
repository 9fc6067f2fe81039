/**
 * How many WebSockets one party may hold open on this instance: per source
 * address (agent and visitor sockets together, counted before anything else
 * is done for the socket), per visitor (all sockets of one visitor token) and
 * per agent token (WS_MAX_PER_ADDRESS, WS_MAX_PER_VISITOR,
 * WS_MAX_PER_AGENT_TOKEN). A socket beyond a bound is closed with
 * CLOSE_TOO_MANY and a reason naming the bound. Counts live in the process:
 * with several instances each counts its own sockets.
 */
import type { WebSocket } from 'ws';
import { CLOSE_TOO_MANY, closeWith } from './socket.js';

export type SocketBound = 'address' | 'visitor' | 'agent_token';

export interface SocketLimits {
  readonly address: number;
  readonly visitor: number;
  readonly agent_token: number;
}

const WHAT: Record<SocketBound, string> = {
  address: 'from your address',
  visitor: 'for this visitor',
  agent_token: 'for this sign-in',
};

export class SocketBounds {
  private readonly open = new Map<string, number>();

  constructor(
    private readonly limits: SocketLimits,
    private readonly onRefused: (bound: SocketBound) => void = () => undefined,
  ) {}

  /**
   * Counts an open socket against `bound` for `key` until it closes; false (and
   * the socket closed with CLOSE_TOO_MANY) when the bound is reached. Call it
   * while the socket is open, synchronously after checking so.
   */
  admit(socket: WebSocket, bound: SocketBound, key: string): boolean {
    const id = `${bound}\u0000${key}`;
    const held = this.open.get(id) ?? 0;
    const limit = this.limits[bound];
    if (held >= limit) {
      this.onRefused(bound);
      closeWith(socket, CLOSE_TOO_MANY, `too many connections ${WHAT[bound]} (at most ${limit}); close another and reconnect later`);
      return false;
    }
    this.open.set(id, held + 1);
    socket.once('close', () => {
      const left = (this.open.get(id) ?? 1) - 1;
      if (left > 0) this.open.set(id, left);
      else this.open.delete(id);
    });
    return true;
  }

  /** Sockets counted against `bound` for `key` now (tests, metrics). */
  held(bound: SocketBound, key: string): number {
    return this.open.get(`${bound}\u0000${key}`) ?? 0;
  }
}
