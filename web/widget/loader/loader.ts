/**
 * The widget loader: the script a customer's page includes (CONTRACT §3).
 * Synchronously defines window.svc_api with every function of the spec and the
 * legacy ones, then injects the chat frame. Calls made before the frame
 * answers are queued and replayed in order; synchronous answers come from the
 * state the frame mirrors here (or from validation done on the spot); nothing
 * ever throws. The page's svc_on* callbacks are called when the frame says.
 * Budget: 3 KB gzipped (web/widget/size.test.ts).
 */
import { MESSAGE_NAMESPACE, type Envelope, type PageInfo } from '../../../protocol/widget';
import type { FrameEvents, LoaderCommands, Mirror, Utm } from '../shared/messages';
import { offlineError, phoneError } from '../shared/validate';

/** Replaced by the server (server/routes/widget/assets.ts) when it serves /widget/<id>.js. */
const BASE = '__PARLEY_BASE__';
const ID = '__PARLEY_WIDGET_ID__';

type Fn = (...args: unknown[]) => unknown;
type Result = { result: 'ok' | 'fail'; [key: string]: unknown };
const w = window as unknown as Window & Record<string, unknown>;

function start(): void {
  const origin = new URL(BASE).origin;
  const m: Mirror = { mode: 'offline', contact: { client_name: null, email: null, phone: null, description: null }, unread: 0, callback: null, calling: false };
  const utm: Utm = {};
  const query = new URLSearchParams(location.search);
  for (const k of ['source', 'medium', 'campaign', 'content', 'term'] as const) {
    const v = query.get('utm_' + k);
    if (v) utm[k] = v;
  }
  const queue: Envelope[] = [];
  const waiting: Record<number, Fn> = {};
  let seq = 0;
  let target: Window | null = null;
  let ready = false;
  let gone = false;
  let size: FrameEvents['size'] = { open: false, width: 0, height: 0 };
  let shown = '0x0';
  let full = false;
  const page = (): PageInfo => ({ url: location.href, title: document.title, referrer: document.referrer });
  let last = page();

  const ok = (extra?: object): Result => ({ result: 'ok', ...extra });
  const fail = (reason: string): Result => ({ result: 'fail', reason });

  const fire = (name: string, ...args: unknown[]): void => call(w[name], args);

  function send<K extends keyof LoaderCommands>(event: K, payload: LoaderCommands[K], cb?: unknown): void {
    try {
      // A JSON round trip: postMessage would throw on functions, and the page keeps its objects.
      const env: Envelope = { ns: MESSAGE_NAMESPACE, event, payload: payload == null ? null : JSON.parse(JSON.stringify(payload)) };
      if (typeof cb === 'function') waiting[(env.id = ++seq)] = cb as Fn;
      if (target) target.postMessage(env, origin);
      else queue.push(env);
    } catch {
      // An argument JSON cannot carry is dropped: svc_api never throws.
    }
  }

  const frame = document.createElement('iframe');
  frame.title = 'Chat';
  frame.src = BASE + '/widget/frame/' + ID + '#' + encodeURIComponent(location.origin);
  frame.setAttribute('allow', 'autoplay');
  frame.style.cssText =
    'position:fixed;right:0;bottom:0;width:0;height:0;border:0;margin:0;padding:0;z-index:2147483647;background:transparent;color-scheme:normal';

  const layout = (): void => {
    if (full !== (full = size.open && innerWidth <= 480)) send('layout', { full });
    const width = full ? innerWidth : Math.min(size.width, innerWidth);
    const height = full ? innerHeight : Math.min(size.height, innerHeight);
    frame.style.width = width + 'px';
    frame.style.height = height + 'px';
    if (width + 'x' + height !== shown) {
      shown = width + 'x' + height;
      fire('svc_onResizeCallback', { width, height });
    }
  };

  addEventListener('message', (e: MessageEvent) => {
    const d = e.data as Envelope<keyof FrameEvents> | null;
    if (e.origin !== origin || !e.source || e.source !== frame.contentWindow || !d || d.ns !== MESSAGE_NAMESPACE) return;
    const p = d.payload;
    if (d.event === 'hello') {
      target = e.source;
      send('init', { page: page(), utm, started: Math.round(performance.timeOrigin) });
      for (const env of queue.splice(0)) target.postMessage(env, origin);
    } else if (d.event === 'ready' || d.event === 'state') {
      Object.assign(m, p as Mirror);
      if (d.event === 'ready' && !ready) {
        ready = true;
        fire('svc_onLoadCallback');
      }
    } else if (d.event === 'size') {
      size = p as FrameEvents['size'];
      layout();
    } else if (d.event === 'callback') {
      const c = p as FrameEvents['callback'];
      if (/^svc_on\w+$/.test(c.name)) fire(c.name, ...c.args);
    } else if (d.event === 'reply' && d.id) {
      call(waiting[d.id], p as unknown[]);
      delete waiting[d.id];
    } else if (d.event === 'gone') {
      gone = true;
      frame.remove();
      fire('svc_onWidgetDestroy');
    }
  });
  addEventListener('resize', layout);
  const mount = (): void => void document.body.appendChild(frame);
  if (document.body) mount();
  else addEventListener('DOMContentLoaded', mount);
  // Single-page apps: tell the frame when the URL or title changes.
  setInterval(() => {
    const now = page();
    if (now.url !== last.url || now.title !== last.title) send('page', (last = now));
  }, 1000);

  const api: Record<string, Fn> = {
    open: (o) => send('open', o && typeof o === 'object' ? (o as { start?: string }) : {}),
    close: () => send('close', null),
    chatMode: () => m.mode,
    getContactInfo: () => ({ ...m.contact }),
    getVisitorNumber: (cb) => send('number', null, cb),
    setContactInfo: (c) => {
      if (!c || typeof c !== 'object') return fail('Contact info must be an object.');
      const out: LoaderCommands['contact'] = {};
      for (const k of ['name', 'email', 'phone', 'description'] as const) {
        const v = (c as Record<string, unknown>)[k];
        if (typeof v === 'string' && v.trim()) m.contact[k === 'name' ? 'client_name' : k] = out[k] = v.trim();
      }
      send('contact', out);
      return ok();
    },
    setCustomData: (d) => (Array.isArray(d) ? (send('customData', d), ok()) : fail('Custom data must be array.')),
    setRules: (r) => (r && typeof r === 'object' ? (send('rules', r), ok()) : fail('Rules must be an object.')),
    setUserToken: (t, signature) => {
      const token = typeof t === 'number' && isFinite(t) ? String(t) : t;
      if (typeof token !== 'string' || !token.trim() || token.length > 255) return { result: 'fail', token: typeof t === 'string' ? t : false };
      send('userToken', { token, signature: typeof signature === 'string' ? signature : undefined });
      return ok({ token });
    },
    showProactiveInvitation: (text, dep) => {
      if (typeof text !== 'string' || !text.trim()) return fail('Invitation text must be a string.');
      send('invite', { text, department_id: dep != null && isFinite(Number(dep)) ? Number(dep) : undefined });
      return ok();
    },
    startCall: (phone) => {
      const error = phoneError(phone);
      if (error) return fail(error);
      if (m.callback && m.callback.result !== 'ok') return { ...m.callback };
      if (m.calling) return fail('Callback unavaiable');
      m.calling = true;
      send('call', { phone: phone as string });
      return ok();
    },
    isCallbackEnabled: (cb) => send('callbackEnabled', null, cb),
    sendOfflineMessage: (o) => {
      const error = gone ? 'The chat is not available.' : offlineError(o);
      if (error) return { result: 'fail', error };
      send('offline', o as LoaderCommands['offline']);
      return ok();
    },
    // Legacy functions of the older and newer revisions of the API.
    getUtm: () => ({ ...utm }),
    getUnreadMessagesCount: () => m.unread,
    clearHistory: () => send('clearHistory', null),
    setWidgetColor: (c) => void (typeof c === 'string' && send('color', c)),
    sendPageTitle: (t) => send('page', { ...page(), title: typeof t === 'string' ? t : document.title }),
    setClientAttributes: (a) => void (a && typeof a === 'object' && send('attributes', a as Record<string, unknown>)),
  };
  for (const k in api) {
    const f = api[k];
    api[k] = (...a) => {
      try {
        return f(...a);
      } catch (e) {
        console.error(e);
      }
    };
  }
  w.svc_api = api;
}

/** Calls a page function; its exceptions are logged, never passed on. */
function call(f: unknown, args: unknown[]): void {
  if (typeof f !== 'function') return;
  try {
    (f as Fn)(...args);
  } catch (e) {
    console.error(e);
  }
}

if (!w.__parley) {
  w.__parley = ID;
  start();
}
