/**
 * A customer endpoint that misbehaves on purpose, on a raw TCP server on
 * 127.0.0.1 so every byte and every reset is under the test's control. Each
 * request (attempt) is answered as the script says for its index:
 * - ok: 200 {"result":"ok"}
 * - reset-on-headers: a TCP reset as soon as the request head has arrived (mid-request)
 * - reset-mid-response: a 200 head and part of the body, then a reset
 * - trickle-status / trickle-body: the whole answer, or the body after an
 *   immediate head, one byte every 100 ms (never complete within an attempt)
 * - huge: a status and a body of `bytes` bytes streamed as fast as the reader
 *   takes them (backpressure respected: the test process never buffers it)
 * - huge-headers: a status line and then header lines without end
 * - redirect: a 3xx with a Location
 * Everything is bounded: a trickle stops after 30 s, a stream at its size, and
 * close() destroys every socket.
 */
import net from 'node:net';

export type Behaviour =
  | { kind: 'ok' }
  | { kind: 'reset-on-headers' }
  | { kind: 'reset-mid-response' }
  | { kind: 'trickle-status' }
  | { kind: 'trickle-body' }
  | { kind: 'huge'; status: number; bytes: number }
  | { kind: 'huge-headers' }
  | { kind: 'redirect'; status: number; location: string };

export interface Attempt {
  /** Date.now() when the request head arrived. */
  at: number;
  webhookId: string;
  path: string;
  /** Bytes of the answer handed to the socket (backpressure respected: at most one 64 KiB chunk waits in its buffer). */
  written: number;
  closedAt: number | null;
}

export interface MisbehavingEndpoint {
  url: string;
  attempts: Attempt[];
  close(): Promise<void>;
}

const OK_ANSWER = 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 15\r\nConnection: close\r\n\r\n{"result":"ok"}';
const TRICKLE_MS = 100;
const TRICKLE_MAX_MS = 30_000;
const CHUNK = Buffer.alloc(64 * 1024, 'x');

export async function startMisbehaving(script: (index: number) => Behaviour): Promise<MisbehavingEndpoint> {
  const attempts: Attempt[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    let head = '';
    let started = false;
    const onData = (chunk: Buffer): void => {
      if (started) return;
      head += chunk.toString('latin1');
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      started = true;
      const lines = head.slice(0, end).split('\r\n');
      const header = (name: string): string =>
        lines
          .find((l) => l.toLowerCase().startsWith(`${name}:`))
          ?.slice(name.length + 1)
          .trim() ?? '';
      const attempt: Attempt = { at: Date.now(), webhookId: header('webhook-id'), path: lines[0].split(' ')[1] ?? '', written: 0, closedAt: null };
      attempts.push(attempt);
      socket.on('close', () => (attempt.closedAt = Date.now()));
      const behaviour = script(attempts.length - 1);
      if (behaviour.kind === 'reset-on-headers') return void socket.resetAndDestroy();
      // The rest of the request body is not read on purpose: answering early is allowed.
      answer(socket, behaviour, attempt);
    };
    socket.on('data', onData);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    attempts,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

function answer(socket: net.Socket, b: Exclude<Behaviour, { kind: 'reset-on-headers' }>, attempt: Attempt): void {
  const write = (data: string | Buffer): boolean => {
    if (socket.destroyed) return false;
    attempt.written += Buffer.byteLength(data);
    return socket.write(data);
  };
  switch (b.kind) {
    case 'ok':
      write(OK_ANSWER);
      socket.end();
      return;
    case 'reset-mid-response':
      write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"result":');
      setTimeout(() => socket.resetAndDestroy(), 50);
      return;
    case 'trickle-status':
      return trickle(socket, write, Buffer.from(OK_ANSWER));
    case 'trickle-body':
      write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 300\r\n\r\n');
      return trickle(socket, write, Buffer.from(`{"result":"ok"}${' '.repeat(285)}`));
    case 'huge':
      write(`HTTP/1.1 ${b.status} Whatever\r\nContent-Type: application/json\r\nContent-Length: ${b.bytes}\r\n\r\n`);
      return stream(socket, write, b.bytes);
    case 'huge-headers': {
      write('HTTP/1.1 200 OK\r\n');
      let n = 0;
      const more = (): void => {
        // 4 MB of header lines at most; the reader gives up long before.
        while (n < 64 && !socket.destroyed) {
          n++;
          if (!write(`X-Filler-${n}: ${'y'.repeat(64 * 1024 - 20)}\r\n`)) return void socket.once('drain', more);
        }
        socket.end();
      };
      more();
      return;
    }
    case 'redirect':
      write(`HTTP/1.1 ${b.status} Moved\r\nLocation: ${b.location}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
      socket.end();
      return;
  }
}

function trickle(socket: net.Socket, write: (d: Buffer) => boolean, data: Buffer): void {
  let i = 0;
  const started = Date.now();
  const timer = setInterval(() => {
    if (socket.destroyed || i >= data.length || Date.now() - started > TRICKLE_MAX_MS) {
      clearInterval(timer);
      socket.end();
      return;
    }
    write(data.subarray(i, i + 1));
    i++;
  }, TRICKLE_MS);
  socket.on('close', () => clearInterval(timer));
}

function stream(socket: net.Socket, write: (d: Buffer) => boolean, bytes: number): void {
  let left = bytes;
  const more = (): void => {
    while (left > 0 && !socket.destroyed) {
      const piece = left >= CHUNK.length ? CHUNK : CHUNK.subarray(0, left);
      left -= piece.length;
      if (!write(piece)) return void socket.once('drain', more);
    }
    socket.end();
  };
  more();
}
