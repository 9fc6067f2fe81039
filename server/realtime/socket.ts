/**
 * Pieces every realtime socket shares (the agent stream, the widget's visitor
 * socket): close codes, the ?cursor= rule, the reset frame, closing with a
 * reason, sending with back-pressure, and the ping that finds dead peers.
 */
import type { WebSocket } from 'ws';
import { wsText } from '../lib/wsText.js';

export const PING_INTERVAL_MS = 25_000;
export const CLOSE_UNAUTHORIZED = 4401;
export const CLOSE_FORBIDDEN = 4403;
export const CLOSE_BAD_REQUEST = 4400;
/** Beyond a WebSocket bound (per address, visitor or agent token: realtime/socketBounds.ts); reconnect later. */
export const CLOSE_TOO_MANY = 4429;
export const CLOSE_TRY_AGAIN = 1013;
export const CLOSE_INTERNAL = 1011;
/**
 * Why a resume replays nothing: the cursor is older than the events the server
 * still keeps (cursor_expired: retention deleted some it never saw), or more
 * than MAX_REPLAY events behind (too_far_behind, realtime/feed.ts).
 */
export type ResetReason = 'cursor_expired' | 'too_far_behind';
/** Sent before `ready` instead of a replay: reload what you show through the API; the stream goes on from the head. */
export const resetFrame = (reason: ResetReason) => ({ type: 'reset', data: { reason } }) as const;
/** Bytes waiting in the socket's buffer before the client is considered too slow. */
const MAX_BUFFERED = 4 * 1024 * 1024;

/** ?cursor=: undefined when invalid; null when none was given. */
export function parseCursor(value: unknown): number | null | undefined {
  if (value === undefined || value === '') return null;
  if (typeof value !== 'string' || !/^\d{1,15}$/.test(value)) return undefined;
  return Number(value);
}

export function closeWith(socket: WebSocket, code: number, reason: string): void {
  if (socket.readyState === socket.OPEN || socket.readyState === socket.CONNECTING) socket.close(code, reason.slice(0, 120));
}

/** Sends one JSON frame; a client that stopped reading is closed (it resumes with its cursor). */
export function sendJson(socket: WebSocket, frame: unknown): void {
  sendSerialized(socket, JSON.stringify(frame));
}

/**
 * Sends a frame already serialized: one event going to many sockets is
 * serialized (and UTF-8 encoded, as a Buffer) once, not once per socket.
 */
export function sendSerialized(socket: WebSocket, frame: string | Buffer): void {
  if (socket.readyState !== socket.OPEN) return;
  if (socket.bufferedAmount > MAX_BUFFERED) {
    closeWith(socket, CLOSE_TRY_AGAIN, 'too slow; reconnect with your cursor');
    return;
  }
  socket.send(frame, { binary: false });
}

/**
 * Pings every PING_INTERVAL_MS and terminates a socket that did not answer the
 * previous ping; `onTick` runs at each ping (catch up, recheck credentials).
 * Browsers cannot send protocol pings: {"type":"ping"} is answered {"type":"pong"}.
 * Returns the stop function (call it when the socket closes).
 */
export function keepAlive(socket: WebSocket, onTick: () => void): () => void {
  let alive = true;
  socket.on('pong', () => (alive = true));
  socket.on('message', (raw) => {
    const text = wsText(raw);
    if (text.length < 100 && /"type"\s*:\s*"ping"/.test(text)) sendJson(socket, { type: 'pong', data: {} });
  });
  const ticker = setInterval(() => {
    if (!alive) {
      socket.terminate();
      return;
    }
    alive = false;
    socket.ping();
    onTick();
  }, PING_INTERVAL_MS);
  return () => clearInterval(ticker);
}
