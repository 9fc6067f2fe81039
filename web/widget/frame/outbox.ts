/**
 * sendOfflineMessage's outbox. svc_api answers {result: 'ok'} at once (the
 * spec's synchronous answer), so a message the page handed over must reach
 * the server even when the first try does not: no network, the server busy,
 * the visitor's limit of offline messages reached. It is kept in the frame's
 * localStorage until the server has stored it, retried with backoff (after
 * Retry-After on a 429) and again on the next page of the site. While the
 * server refuses for its limit, `hold` carries the reason: the loader answers
 * further calls with it (a fail, nothing kept), so an `ok` always means stored
 * or on its way. Two tabs starting together with messages left over may both
 * send them: a rare duplicate is better than a lost message.
 */
import { ApiError, type Api } from './api';
import { load, save } from './storage';

export type OfflineBody = Record<string, string>;

const OFFLINE_KEYS = ['name', 'email', 'phone', 'description', 'message'] as const;

/** The message's non-empty strings, trimmed. */
export function offlineBody(o: Partial<Record<(typeof OFFLINE_KEYS)[number], unknown>>): OfflineBody {
  const body: OfflineBody = {};
  for (const k of OFFLINE_KEYS) {
    const v = o[k];
    if (typeof v === 'string' && v.trim()) body[k] = v.trim();
  }
  return body;
}

export class Outbox {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private busy = false;
  private tries = 0;

  constructor(
    private readonly key: string,
    private readonly api: Api,
    private readonly whenReady: () => Promise<void>,
    private readonly on: { hold: (reason: string | null) => void; gone: () => void },
  ) {}

  private read(): OfflineBody[] {
    try {
      const list: unknown = JSON.parse(load(this.key) ?? '[]');
      return Array.isArray(list) ? list.filter((x): x is OfflineBody => !!x && typeof x === 'object') : [];
    } catch {
      return [];
    }
  }

  private write(list: OfflineBody[]): void {
    save(this.key, list.length ? JSON.stringify(list) : null);
  }

  /** Keeps the message at once (the page may be left before the session exists), then sends what is kept. */
  add(body: OfflineBody): void {
    this.write([...this.read(), body]);
    void this.flush();
  }

  /** Sends the kept messages in order; stops at the first that fails and tries again later. */
  async flush(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    clearTimeout(this.timer);
    try {
      await this.whenReady();
      for (let next = this.read()[0]; next; next = this.read()[0]) {
        try {
          await this.api.call('POST', 'offline', next);
        } catch (e) {
          const status = e instanceof ApiError ? e.status : 0;
          if (status === 404 || status === 403) return this.on.gone();
          if (status === 400) {
            // The server refuses the message itself (the loader checks the same rules, so this is rare): sending it again changes nothing.
            console.warn('Parley: an offline message was refused:', e instanceof Error ? e.message : e);
          } else {
            if (status === 429) this.on.hold(e instanceof Error ? e.message : 'Too many offline messages.');
            const wait = status === 429 && e instanceof ApiError && e.retryAfter > 0 ? e.retryAfter * 1000 : Math.min(60_000, 1000 * 2 ** this.tries++);
            this.timer = setTimeout(() => void this.flush(), wait);
            return;
          }
        }
        this.write(this.read().slice(1));
        this.tries = 0;
        this.on.hold(null);
      }
    } finally {
      this.busy = false;
    }
  }
}
