/**
 * The visitor socket (GET /widget/ws/<widget_id>?token=&cursor=): reconnects
 * with backoff, at once when the browser comes back online, and resumes from
 * the last cursor seen so nothing sent meanwhile is lost (the widget drops
 * what it already has by message id).
 */
import type { VisitorFrame } from '../../../protocol/widget';
import { parseData } from '../shared/json';

/** Every frame type the visitor socket sends (the compiler wants each, and no other). */
const FRAME_TYPES: Record<VisitorFrame['type'], true> = {
  ready: true,
  reset: true,
  'message.created': true,
  'message.updated': true,
  'chat.updated': true,
  typing: true,
  status: true,
  'call.updated': true,
};

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** JSON whose `type` is a frame type the widget knows and whose `data` is an object: the one place wire JSON becomes a typed frame. */
function isVisitorFrame(v: unknown): v is VisitorFrame {
  return isRecord(v) && typeof v.type === 'string' && Object.hasOwn(FRAME_TYPES, v.type) && isRecord(v.data);
}

/** A frame from the socket's text, or null (broken JSON, a type this widget does not know): ignored. */
export function readVisitorFrame(raw: string): VisitorFrame | null {
  let value: unknown;
  try {
    value = parseData(raw);
  } catch {
    return null;
  }
  return isVisitorFrame(value) ? value : null;
}

/** Close code of a socket beyond the server's bounds (docs/SECURITY.md section 4). */
const CLOSE_TOO_MANY = 4429;

export interface SocketHandlers {
  url: () => string;
  frame: (f: VisitorFrame) => void;
  connected: (up: boolean) => void;
  /** The server refused the socket for good (4xxx close code but 4429): a bad token, say. */
  refused: (code: number) => void;
}

export class VisitorSocket {
  private ws: WebSocket | null = null;
  private attempt = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private running = false;

  constructor(private readonly on: SocketHandlers) {
    addEventListener('online', () => {
      // An attempt made while offline is doomed: start afresh.
      if (this.ws && this.ws.readyState !== WebSocket.OPEN) this.drop();
      this.now();
    });
    // An offline browser may keep a dead socket open: drop it, resume when back.
    addEventListener('offline', () => this.ws?.close());
  }

  /** Forgets the current socket without waiting for its close event (the caller reconnects). */
  private drop(): void {
    const ws = this.ws;
    this.ws = null;
    ws?.close();
    this.on.connected(false);
  }

  start(): void {
    this.running = true;
    this.now();
  }

  stop(): void {
    this.running = false;
    clearTimeout(this.timer);
    const ws = this.ws;
    this.ws = null;
    ws?.close();
  }

  private now(): void {
    if (!this.running || this.ws) return;
    clearTimeout(this.timer);
    this.open();
  }

  private open(): void {
    let ws: WebSocket;
    try {
      ws = new WebSocket(this.on.url());
    } catch {
      return this.retry();
    }
    this.ws = ws;
    ws.onmessage = (e: MessageEvent) => {
      const f = readVisitorFrame(String(e.data));
      if (!f) return;
      if (f.type === 'ready') {
        this.attempt = 0;
        this.on.connected(true);
      }
      this.on.frame(f);
    };
    ws.onclose = (e: CloseEvent) => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.on.connected(false);
      if (!this.running) return;
      // 4429: too many sockets open for this visitor or address just now; not for good, so retry with backoff.
      if (e.code >= 4400 && e.code < 4500 && e.code !== CLOSE_TOO_MANY) this.on.refused(e.code);
      else this.retry();
    };
  }

  private retry(): void {
    const delay = Math.min(10_000, 500 * 2 ** this.attempt++) * (0.5 + Math.random() / 2);
    this.timer = setTimeout(() => this.now(), delay);
  }
}
