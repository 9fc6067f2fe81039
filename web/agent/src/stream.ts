/**
 * The live feed: GET /api/v1/stream as a WebSocket (cookie auth, same origin).
 * Every frame carries a cursor (event id); after a drop the client reconnects
 * with the last one, with exponential backoff and jitter, and the server
 * replays what was missed before its `ready` frame. Frames at or below the
 * cursor are ignored, so a replay never applies an event twice. A heartbeat
 * ({"type":"ping"} → "pong") detects dead connections the browser misses.
 * A `reset` frame before `ready` means the cursor is older than the events the
 * server keeps (retention): nothing is replayed, the app reloads its lists.
 */
import type { AgentStreamFrame, EventFrame, EventType } from '../../../protocol/agent';
import { isRecord } from './format';

/** Every frame type the stream sends (the compiler wants each event name, and no other). */
const FRAME_TYPES: Record<EventType | AgentStreamFrame['type'], true> = {
  'chat.created': true,
  'chat.updated': true,
  'message.created': true,
  'message.updated': true,
  typing: true,
  'offline_message.created': true,
  'offline_message.updated': true,
  'call.updated': true,
  'agent.updated': true,
  'working_hours.changed': true,
  'chat.offered': true,
  'chat.read': true,
  'channel.changed': true,
  'visitor.erased': true,
  ready: true,
  reset: true,
  pong: true,
};

/**
 * A frame from the socket's text: JSON whose `type` is a frame type this app
 * knows and whose `data` is an object; anything else (a type the server added
 * later, a broken frame) is null and ignored. The one place where wire JSON
 * becomes a typed frame, as decodeEvent is on the server.
 */
function isWireFrame(value: unknown): value is AgentStreamFrame {
  return isRecord(value) && typeof value.type === 'string' && Object.hasOwn(FRAME_TYPES, value.type) && isRecord(value.data);
}

export function readFrame(raw: string): AgentStreamFrame | null {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  return isWireFrame(value) ? value : null;
}

export type StreamState = 'connecting' | 'live' | 'reconnecting' | 'closed';

export interface StreamHandlers {
  onFrame: (frame: EventFrame) => void;
  /** Live from here on; `first` is true once per start(), and again after a refused or expired cursor (load the lists then). */
  onReady: (first: boolean) => void;
  /** The cursor expired (a `reset` frame): what the app shows may be stale; `ready` follows with `first` true. */
  onReset: () => void;
  onState: (state: StreamState) => void;
  /** The server refused the session (expired, revoked, deactivated). */
  onUnauthorized: () => void;
}

const HEARTBEAT_MS = 20_000;
const HEARTBEAT_TIMEOUT_MS = 10_000;
const BACKOFF_MIN_MS = 500;
const BACKOFF_MAX_MS = 30_000;
const CLOSE_UNAUTHORIZED = 4401;
const CLOSE_FORBIDDEN = 4403;
const CLOSE_BAD_REQUEST = 4400;

export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** attempt);
  return Math.round(base / 2 + random() * (base / 2));
}

export class AgentStream {
  private socket: WebSocket | null = null;
  private cursor: number | null = null;
  private attempt = 0;
  private readyOnce = false;
  private stopped = true;
  private retryTimer: number | undefined;
  private heartbeat: number | undefined;
  private heartbeatDeadline: number | undefined;

  constructor(private readonly handlers: StreamHandlers) {}

  /** The last event id seen (what a reconnect resumes from). */
  get lastCursor(): number | null {
    return this.cursor;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.readyOnce = false;
    this.cursor = null;
    this.attempt = 0;
    window.addEventListener('online', this.onOnline);
    this.connect();
  }

  stop(): void {
    this.stopped = true;
    window.removeEventListener('online', this.onOnline);
    window.clearTimeout(this.retryTimer);
    this.clearHeartbeat();
    const s = this.socket;
    this.socket = null;
    if (s && s.readyState <= WebSocket.OPEN) s.close(1000, 'signed out');
    this.handlers.onState('closed');
  }

  private readonly onOnline = (): void => {
    // The network is back: do not wait for the backoff timer.
    if (this.stopped || this.socket) return;
    window.clearTimeout(this.retryTimer);
    this.connect();
  };

  private url(): string {
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const query = this.cursor === null ? '' : `?cursor=${this.cursor}`;
    return `${scheme}://${location.host}/api/v1/stream${query}`;
  }

  private connect(): void {
    if (this.stopped) return;
    this.handlers.onState(this.readyOnce ? 'reconnecting' : 'connecting');
    let socket: WebSocket;
    try {
      socket = new WebSocket(this.url());
    } catch {
      this.scheduleRetry();
      return;
    }
    this.socket = socket;
    socket.onopen = () => this.armHeartbeat();
    socket.onmessage = (ev: MessageEvent) => {
      if (socket !== this.socket) return;
      this.onMessage(ev.data);
    };
    socket.onclose = (ev: CloseEvent) => {
      if (socket !== this.socket) return;
      this.socket = null;
      this.clearHeartbeat();
      if (this.stopped) return;
      if (ev.code === CLOSE_UNAUTHORIZED || ev.code === CLOSE_FORBIDDEN) {
        this.stopped = true;
        this.handlers.onState('closed');
        this.handlers.onUnauthorized();
        return;
      }
      if (ev.code === CLOSE_BAD_REQUEST) {
        // The cursor was refused: start from the head and let the app reload its lists.
        this.cursor = null;
        this.readyOnce = false;
      }
      this.scheduleRetry();
    };
  }

  private onMessage(raw: unknown): void {
    window.clearTimeout(this.heartbeatDeadline);
    if (typeof raw !== 'string') return;
    const frame = readFrame(raw);
    if (!frame) return;
    if (frame.type === 'pong') return;
    if (frame.type === 'reset') {
      // Nothing is replayed: adopt ready's cursor whatever it is, and let the app load afresh.
      this.cursor = null;
      this.readyOnce = false;
      this.handlers.onReset();
      return;
    }
    if (frame.type === 'ready') {
      const at = Number(frame.data.cursor);
      if (Number.isFinite(at) && (this.cursor === null || at > this.cursor)) this.cursor = at;
      this.attempt = 0;
      const first = !this.readyOnce;
      this.readyOnce = true;
      this.handlers.onState('live');
      this.handlers.onReady(first);
      return;
    }
    if (typeof frame.cursor === 'number') {
      if (this.cursor !== null && frame.cursor <= this.cursor) return; // already applied
      this.cursor = frame.cursor;
    }
    this.handlers.onFrame(frame);
  }

  private scheduleRetry(): void {
    this.handlers.onState('reconnecting');
    const delay = backoffDelay(this.attempt);
    this.attempt += 1;
    window.clearTimeout(this.retryTimer);
    this.retryTimer = window.setTimeout(() => this.connect(), delay);
  }

  private armHeartbeat(): void {
    this.clearHeartbeat();
    this.heartbeat = window.setInterval(() => {
      const s = this.socket;
      if (!s || s.readyState !== WebSocket.OPEN) return;
      s.send('{"type":"ping"}');
      window.clearTimeout(this.heartbeatDeadline);
      // No frame at all before the deadline: the connection is dead even if the browser thinks not.
      this.heartbeatDeadline = window.setTimeout(() => this.abandon(s), HEARTBEAT_TIMEOUT_MS);
    }, HEARTBEAT_MS);
  }

  /** Gives up on a silent socket at once (a dead link can take minutes to report its close). */
  private abandon(socket: WebSocket): void {
    if (socket !== this.socket) return;
    this.socket = null;
    this.clearHeartbeat();
    socket.onclose = null;
    socket.onmessage = null;
    socket.close(4000, 'heartbeat timeout');
    this.scheduleRetry();
  }

  private clearHeartbeat(): void {
    window.clearInterval(this.heartbeat);
    window.clearTimeout(this.heartbeatDeadline);
  }
}
