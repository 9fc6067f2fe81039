/**
 * An agent's stream (`/api/v1/stream`) as the benchmarks read it: each
 * chat-channel message POSTed is expected as a `message.created` frame, found
 * by the reference its text ends with (bench/lib/bodies.ts), and the time from
 * the POST to that frame is kept.
 */
import WebSocket from 'ws';
import { REF_PATTERN } from './bodies.js';
import { wsText } from '../../server/lib/wsText.js';

interface Pending {
  sentAt: number;
  arrived?: () => void;
}

export class AgentFrames {
  /** POST → frame, in ms, in arrival order. */
  readonly latencies: number[] = [];
  /** Every `message.created` frame received, expected or not (a listener that only counts). */
  received = 0;
  private readonly pending = new Map<string, Pending>();

  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (raw) => this.onFrame(wsText(raw)));
  }

  static async open(wsBase: string, token: string): Promise<AgentFrames> {
    return AgentFrames.openUrl(`${wsBase}/api/v1/stream?token=${token}`);
  }

  /** Any socket that sends the message.created frames (the rows baseline's /ws). */
  static async openUrl(url: string): Promise<AgentFrames> {
    const ws = new WebSocket(url, { perMessageDeflate: false });
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    return new AgentFrames(ws);
  }

  /** Notes that the message with this reference was sent at `sentAt` (performance.now()). */
  expect(ref: string, sentAt: number): void {
    this.pending.set(ref, { sentAt });
  }

  /** Resolves when the frame of `ref` arrived, or after `timeoutMs` (then it stays counted as lost). */
  arrival(ref: string, timeoutMs: number): Promise<void> {
    const p = this.pending.get(ref);
    if (!p) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      p.arrived = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  /** Messages expected whose frame never came. */
  get lost(): number {
    return this.pending.size;
  }

  /** Forgets what was measured so far (after a warm-up). */
  reset(): void {
    this.latencies.length = 0;
    this.pending.clear();
  }

  close(): void {
    this.ws.close();
  }

  private onFrame(text: string): void {
    if (!text.includes('"message.created"')) return;
    this.received++;
    const ref = REF_PATTERN.exec(text)?.[1];
    const p = ref === undefined ? undefined : this.pending.get(ref);
    if (!p || ref === undefined) return;
    this.latencies.push(performance.now() - p.sentAt);
    this.pending.delete(ref);
    p.arrived?.();
  }
}
