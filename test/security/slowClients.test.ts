/**
 * Slow clients cannot hold connections: over real TCP, a client that sends
 * its headers one byte every two seconds, or its body one byte every two
 * seconds, is answered 408 and disconnected once HEADERS_TIMEOUT_MS or
 * REQUEST_TIMEOUT_MS is over, although it never stopped sending; a client
 * silent mid-request is disconnected after IDLE_TIMEOUT_MS. The server keeps
 * serving meanwhile, and an open WebSocket is not concerned by any of them.
 * The defaults reach the HTTP server.
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StreamClient } from '../helpers/realtime.js';
import { createTestApp, type TestApp } from '../helpers/testApp.js';

const HEADERS_MS = 5000;
const REQUEST_MS = 8000;
// Longer than the pause between two bytes, so a trickling client is never idle.
const IDLE_MS = 2500;
const BYTE_EVERY_MS = 2000;

interface Outcome {
  /** What the server sent before it closed. */
  answer: string;
  /** Milliseconds from connecting to the server's close. */
  ms: number;
  /** Bytes the client had sent by then. */
  sent: number;
}

/** Connects, writes `opening` at once, then `trickle` one byte every BYTE_EVERY_MS until the server closes. */
function slowClient(port: number, opening: string, trickle: string): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = net.connect(port, '127.0.0.1');
    let answer = '';
    let sent = 0;
    let timer: NodeJS.Timeout | undefined;
    const give = () => {
      if (socket.destroyed || socket.writableEnded) return;
      if (sent < trickle.length) {
        socket.write(trickle[sent]);
        sent += 1;
      }
    };
    socket.on('connect', () => {
      if (opening) socket.write(opening);
      if (trickle) timer = setInterval(give, BYTE_EVERY_MS);
    });
    socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
    socket.on('error', () => undefined); // a reset after the 408 is a close too
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ answer, ms: Date.now() - started, sent });
    });
    setTimeout(() => {
      clearInterval(timer);
      socket.destroy();
      reject(new Error(`the server still held the connection after 60 s (sent ${sent} bytes)`));
    }, 60_000).unref();
  });
}

describe('slow clients', () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await createTestApp({
      workers: false,
      env: { HEADERS_TIMEOUT_MS: String(HEADERS_MS), REQUEST_TIMEOUT_MS: String(REQUEST_MS), IDLE_TIMEOUT_MS: String(IDLE_MS) },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(() => t.close());

  it('answers 408 and disconnects a client sending its headers one byte every two seconds', { timeout: 90_000 }, async () => {
    const outcome = await slowClient(port, 'GET /healthz HTTP/1.1\r\nHost: parley.test\r\n', `X-Slow: ${'a'.repeat(200)}\r\n\r\n`);
    expect(outcome.answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(outcome.ms).toBeGreaterThanOrEqual(HEADERS_MS - 100);
    expect(outcome.ms).toBeLessThan(HEADERS_MS + 10_000);
    // It was still sending: a byte every two seconds keeps an idle timeout from firing.
    expect(outcome.sent).toBeGreaterThanOrEqual(1);
  });

  it('answers 408 and disconnects a client sending its body one byte every two seconds', { timeout: 90_000 }, async () => {
    const body = JSON.stringify({ email: 'slow@example.com', password: 'x'.repeat(200) });
    const head = `POST /api/v1/auth/login HTTP/1.1\r\nHost: parley.test\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`;
    const outcome = await slowClient(port, head, body);
    expect(outcome.answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(outcome.ms).toBeGreaterThanOrEqual(REQUEST_MS - 100);
    expect(outcome.ms).toBeLessThan(REQUEST_MS + 10_000);
    expect(outcome.sent).toBeGreaterThanOrEqual(2);
    expect(outcome.sent).toBeLessThan(body.length);
  });

  it('disconnects a client that goes silent in the middle of its request', { timeout: 90_000 }, async () => {
    const outcome = await slowClient(port, 'GET /healthz HTTP/1.1\r\nHost: par', '');
    expect(outcome.answer).toBe('');
    expect(outcome.ms).toBeGreaterThanOrEqual(IDLE_MS - 100);
    expect(outcome.ms).toBeLessThan(HEADERS_MS);
  });

  it('keeps serving other clients while slow ones trickle, and leaves an open WebSocket alone', { timeout: 90_000 }, async () => {
    const stream = await StreamClient.ready(`ws://127.0.0.1:${port}/api/v1/stream?token=${encodeURIComponent(t.adminToken)}`);
    const slow = slowClient(port, 'GET /healthz HTTP/1.1\r\nHost: parley.test\r\n', 'X-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n\r\n');
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`http://127.0.0.1:${port}/healthz`);
      expect(res.status).toBe(200);
    }
    await slow;
    // Past every timeout (REQUEST_MS after it opened), the socket still answers.
    await new Promise((r) => setTimeout(r, REQUEST_MS + 1500));
    expect(stream.closeInfo).toBeNull();
    stream.ws.send(JSON.stringify({ type: 'ping' }));
    await stream.until((c) => c.frames.some((f) => f.type === 'pong'));
    stream.ws.close();
  });
});

describe('slow-client timeouts by default', () => {
  it('sets 10 s for headers, 120 s for the whole request and 60 s of silence on the HTTP server', async () => {
    const t = await createTestApp({ workers: false });
    try {
      expect(t.app.server.headersTimeout).toBe(10_000);
      expect(t.app.server.requestTimeout).toBe(120_000);
      expect(t.app.server.timeout).toBe(60_000);
    } finally {
      await t.close();
    }
  });
});
