/**
 * The visitor socket (GET /widget/ws/<widget_id>?token=&cursor=): reconnects
 * with backoff, at once when the browser comes back online, and resumes from
 * the last cursor seen so nothing sent meanwhile is lost (the widget drops
 * what it already has by message id).
 */
import type { VisitorFrame } from '../../../protocol/widget';
import { parseData } from '../shared/json';

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
      let f: VisitorFrame;
      try {
        f = parseData(String(e.data)) as VisitorFrame;
      } catch {
        return;
      }
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
