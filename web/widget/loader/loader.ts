/**
 * The widget loader: the script a customer's page includes (docs/WIDGET.md).
 * Synchronously defines window.svc_api with every function of the spec and the
 * legacy ones, window.svc_config, svc_init() and svc_destroy(), then adds the
 * widget to the page: the default launcher in its own element
 * `#svc_chat_widget` (a page may hide it with its own CSS and open the chat
 * from its own button), and the chat window's iframe apart from it, sized 0×0
 * while the window is closed, so nothing of Parley covers the page then.
 * Calls made before the frame answers are queued and replayed in order;
 * synchronous answers come from the state the frame mirrors here (or from
 * validation done on the spot); nothing ever throws. The page's svc_on*
 * callbacks are called when the frame says. Once the widget is gone (deleted,
 * disabled, svc_destroy) every function answers a failure with the reason.
 * Budget: 3 KB gzipped (web/widget/size.test.ts).
 */
import { MAX_CUSTOM_FIELDS, MESSAGE_NAMESPACE, type Envelope, type PageInfo } from '../../../protocol/widget';
import type { FrameEvents, LoaderCommands, Mirror, Utm } from '../shared/messages';
import { offlineError, phoneError } from '../shared/validate';

/** Replaced by the server (server/routes/widget/assets.ts) when it serves /widget/<id>.js. */
const BASE = '__PARLEY_BASE__';
const ID = '__PARLEY_WIDGET_ID__';
/** The channel's colour (or the default), so svc_config.widget_color holds it before the frame is ready. */
const COLOR = '__PARLEY_COLOR__';
const GONE = 'The chat is not available: the widget was removed or disabled.';
const DESTROYED = 'Removed by svc_destroy().';

type Fn = (...args: unknown[]) => unknown;
type Result = { result: 'ok' | 'fail'; [key: string]: unknown };
const w = window as unknown as Window & Record<string, unknown>;
const d = document;

/** window.__parley: the running widget's stop function (any copy of the loader on the page sees it), unset when none runs. */
type Stop = (reason: string) => void;
const running = (): Stop | undefined => w.__parley as Stop | undefined;

function start(): void {
  const origin = new URL(BASE).origin;
  const m: Mirror = {
    mode: 'offline',
    contact: { client_name: null, email: null, phone: null, description: null },
    unread: 0,
    callback: null,
    calling: false,
    open: false,
    label: '',
    aria: '',
    launcher: true,
    look: '',
    // The iframe's style until the frame sends its own (position, layer, margins: core.ts windowPlace).
    at: 'position:fixed;width:0;height:0;border:0',
  };
  const utm: Utm = {};
  const query = new URLSearchParams(location.search);
  for (const k of ['source', 'medium', 'campaign', 'content', 'term'] as const) {
    const v = query.get('utm_' + k);
    if (v) utm[k] = v;
  }
  const queue: Envelope[] = [];
  const waiting: Record<number, Fn> = {};
  const undo: Array<() => void> = [];
  let seq = 0;
  let target: Window | null = null;
  let ready = false;
  /** Why the widget is gone, or '' while it runs. */
  let dead = '';
  let size: FrameEvents['size'] = { open: false, width: 0, height: 0 };
  let shown = '0,0';
  let full = false;
  const page = (): PageInfo => ({ url: location.href, title: d.title, referrer: d.referrer });
  let last = page();
  const config = { widget_id: ID, chat_mode: m.mode, widget_color: COLOR };
  w.svc_config = config;

  const ok = (extra?: object | false): Result => ({ result: 'ok', ...extra });
  const fail = (reason: string): Result => ({ result: 'fail', reason });

  const fire = (name: string, ...args: unknown[]): void => call(w[name], args);
  const listen = (t: EventTarget, type: string, fn: (e: never) => void): void => {
    t.addEventListener(type, fn as EventListener);
    undo.push(() => t.removeEventListener(type, fn as EventListener));
  };

  /** Answers ok: the call is sent, or queued until the frame is ready (what every function queueing a call answers). */
  function send<K extends keyof LoaderCommands>(event: K, payload: LoaderCommands[K], cb?: unknown): Result {
    try {
      // A JSON round trip: postMessage would throw on functions, and the page keeps its objects.
      const env: Envelope = { ns: MESSAGE_NAMESPACE, event, payload: payload == null ? null : JSON.parse(JSON.stringify(payload)) };
      if (typeof cb === 'function') waiting[(env.id = ++seq)] = cb as Fn;
      if (target) target.postMessage(env, origin);
      else queue.push(env);
    } catch {
      // An argument JSON cannot carry is dropped: svc_api never throws.
    }
    return ok();
  }

  // The chat window: an iframe of its own, 0×0 until the window opens.
  const frame = d.createElement('iframe');
  frame.title = 'Chat';
  // The page's details ride along (after the origin) so the frame starts its session at once; `init` repeats them.
  const init = (): LoaderCommands['init'] => ({ page: page(), utm, started: Math.round(performance.timeOrigin) });
  frame.src = BASE + '/widget/frame/' + ID + '#' + encodeURIComponent(location.origin + '&' + JSON.stringify(init()));
  frame.allow = 'autoplay';
  const place = (): void => void (frame.style.cssText = m.at);
  place();

  // The default launcher, in #svc_chat_widget, drawn as the frame describes it (its look comes with the frame, not the loader).
  // Its place and visibility are set inside the shadow root (:host), so a page's own CSS on the element wins.
  // No type="button" (a button in a shadow root belongs to no form of the page) and no aria-hidden inside (a button's
  // children are presentational; its name is its aria-label, the count included). The icon's fill is in the frame's CSS.
  const box = d.createElement('div');
  box.id = 'svc_chat_widget';
  const shadow = box.attachShadow({ mode: 'open' });
  shadow.innerHTML =
    '<style></style><button hidden><svg viewBox="0 0 24 24"><path d="M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H8l-4 4V6a2 2 0 0 1 2-2z"/></svg><span></span><b hidden></b></button>';
  const btn = shadow.querySelector('button') as HTMLButtonElement;
  const [label, badge] = [btn.children[1], btn.children[2]] as HTMLElement[];
  const look = shadow.firstChild as HTMLElement;
  btn.onclick = () => {
    send('open', { focus: true });
    frame.focus();
  };

  const paint = (): void => {
    btn.hidden = !ready || m.open || !m.launcher;
    place();
    layout();
    look.textContent = m.look;
    label.textContent = m.label;
    btn.setAttribute('aria-label', m.aria || m.label);
    badge.textContent = '' + m.unread;
    badge.hidden = !m.unread;
  };

  const layout = (): void => {
    if (full !== (full = size.open && innerWidth <= 480)) send('layout', { full });
    const width = full ? innerWidth : Math.min(size.width, innerWidth);
    const height = full ? innerHeight : Math.min(size.height, innerHeight);
    frame.style.width = width + 'px';
    frame.style.height = height + 'px';
    // The widget's size on the page: the window when open, else the launcher with its margins (0×0 when hidden);
    // nothing while the frame's state and its size disagree (the window is opening or closing).
    if (m.open !== size.open) return;
    const b = btn.offsetWidth;
    const now = size.open ? [width, height] : b ? [b + 32, btn.offsetHeight + 32] : [0, 0];
    if (now.join() !== shown) {
      shown = now.join();
      fire('svc_onResizeCallback', { width: now[0], height: now[1] });
    }
  };

  listen(w, 'message', (e: MessageEvent) => {
    const env = e.data as Envelope<keyof FrameEvents> | null;
    if (e.origin !== origin || !e.source || e.source !== frame.contentWindow || !env || env.ns !== MESSAGE_NAMESPACE) return;
    const p = env.payload;
    if (env.event === 'hello') {
      target = e.source;
      send('init', init());
      for (const q of queue.splice(0)) target.postMessage(q, origin);
    } else if (env.event === 'ready' || env.event === 'state') {
      const wasOpen = m.open;
      Object.assign(m, p as Mirror);
      config.chat_mode = m.mode;
      config.widget_color = m.color as string;
      paint();
      // The visitor minimized the window: the keyboard focus comes back to the launcher.
      if (wasOpen && !m.open && d.activeElement === frame) btn.focus();
      if (env.event === 'ready' && !ready) {
        ready = true;
        paint();
        fire('svc_onLoadCallback');
      }
    } else if (env.event === 'size') {
      size = p as FrameEvents['size'];
      layout();
    } else if (env.event === 'callback') {
      const c = p as FrameEvents['callback'];
      if (/^svc_on\w+$/.test(c.name)) fire(c.name, ...c.args);
    } else if (env.event === 'reply' && env.id) {
      call(waiting[env.id], p as unknown[]);
      delete waiting[env.id];
    } else if (env.event === 'gone') {
      stop(GONE);
      fire('svc_onWidgetDestroy');
    }
  });
  listen(w, 'resize', layout);
  const mount = (): void => void d.body.append(box, frame);
  if (d.body) mount();
  else listen(d, 'DOMContentLoaded', mount);
  // Single-page apps: tell the frame when the URL or title changes.
  const timer = setInterval(() => {
    const now = page();
    if (now.url !== last.url || now.title !== last.title) send('page', (last = now));
  }, 1000);

  const stop: Stop = (reason) => {
    if (dead) return;
    dead = reason;
    w.__parley = undefined;
    clearInterval(timer);
    for (const f of undo) f();
    box.remove();
    frame.remove();
    config.chat_mode = m.mode = 'offline';
    if (reason === DESTROYED) delete w.svc_config;
    // Disabled (or deleted): asked again every 15 s whether the frame is served; re-enabled, the widget starts again.
    else again();
  };
  const again = (): unknown => setTimeout(() => void fetch(frame.src).then((r) => (r.ok ? running() || start() : again()), again), 15e3);

  const api: Record<string, Fn> = {
    // Ok in every state while the widget runs (before the frame is ready the call is queued; offline it opens the form).
    open: (o) => send('open', o && typeof o === 'object' ? { start: (o as { start?: string }).start } : {}),
    close: () => send('close', null),
    chatMode: () => m.mode,
    getContactInfo: () => ({ ...m.contact }),
    getVisitorNumber: (cb) => void send('number', null, cb),
    setContactInfo: (c) => {
      if (!c || typeof c !== 'object') return fail('Contact info must be an object.');
      const out: LoaderCommands['contact'] = {};
      for (const k of ['name', 'email', 'phone', 'description'] as const) {
        const v = (c as Record<string, unknown>)[k];
        if (typeof v === 'string' && v.trim()) m.contact[k === 'name' ? 'client_name' : k] = out[k] = v.trim();
      }
      return send('contact', out);
    },
    setCustomData: (x) => {
      if (!Array.isArray(x)) return fail('Custom data must be array.');
      // Only the first fields are kept (the server cuts the rest): the page is told how many were left out.
      send('customData', x);
      return ok(x.length > MAX_CUSTOM_FIELDS && { dropped: x.length - MAX_CUSTOM_FIELDS });
    },
    setRules: (r) => (r && typeof r === 'object' ? send('rules', r) : fail('Rules must be an object.')),
    setUserToken: (t, signature) => {
      const token = typeof t === 'number' && isFinite(t) ? String(t) : t;
      if (typeof token !== 'string' || !token.trim() || token.length > 255) return { result: 'fail', token: typeof t === 'string' ? t : false };
      send('userToken', { token, signature: typeof signature === 'string' ? signature : undefined });
      return ok({ token });
    },
    showProactiveInvitation: (text, dep) => {
      if (typeof text !== 'string' || !text.trim()) return fail('Invitation text must be a string.');
      return send('invite', { text, department_id: dep != null && isFinite(Number(dep)) ? Number(dep) : undefined });
    },
    startCall: (phone) => {
      const error = phoneError(phone);
      if (error) return fail(error);
      if (m.callback && m.callback.result !== 'ok') return { ...m.callback };
      if (m.calling) return fail('Callback unavaiable');
      m.calling = true;
      return send('call', { phone: phone as string });
    },
    isCallbackEnabled: (cb) => void send('callbackEnabled', null, cb),
    sendOfflineMessage: (o) => {
      // Ok only when it will be stored: the frame keeps it until the server has it, unless the server's limit is reached.
      const error = m.hold ?? offlineError(o);
      if (error) return { result: 'fail', error };
      return send('offline', o as LoaderCommands['offline']);
    },
    // Legacy functions of the older and newer revisions of the API.
    getUtm: () => ({ ...utm }),
    getUnreadMessagesCount: () => m.unread,
    clearHistory: () => void send('clearHistory', null),
    setWidgetColor: (c) => void (typeof c === 'string' && send('color', c)),
    sendPageTitle: (t) => void send('page', { ...page(), title: typeof t === 'string' ? t : d.title }),
    setClientAttributes: (a) => void (a && typeof a === 'object' && send('attributes', a as Record<string, unknown>)),
  };
  for (const k in api) {
    const f = api[k];
    api[k] = (...a) => {
      try {
        if (!dead) return f(...a);
        // Gone: a failure with the reason, in the shape each function answers with.
        if (k === 'chatMode') return 'offline';
        if (k === 'sendOfflineMessage') return { result: 'fail', error: dead };
        if (k === 'getVisitorNumber') return call(a[0], [dead, null]);
        if (k === 'isCallbackEnabled') return call(a[0], [fail(dead)]);
        return fail(dead);
      } catch (e) {
        console.error(e);
      }
    };
  }
  w.svc_api = api;
  w.__parley = stop;
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

/** Adds the widget to the page (again after svc_destroy, for single-page apps); a widget already running stays as it is. */
w.svc_init = () => void (running() || start());
/** Removes everything the widget added to the page; svc_api then answers failures until svc_init(). */
w.svc_destroy = () => running()?.(DESTROYED);
if (!running()) start();
