/**
 * The chat frame's controller, its core: starts (or resumes) the visitor
 * session, keeps the socket, turns server frames into state, mirrors what
 * svc_api answers synchronously to the loader, fires the page's svc_on*
 * callbacks at the spec's moments, opens and closes the window, shows
 * invitations. The visitor's own actions are in widget.ts.
 */
import {
  DEFAULT_WIDGET_COLOR,
  type CallbackAvailability,
  type ContactInfo,
  type PageInfo,
  type SessionResponse,
  type VisitorFrame,
  type WidgetMessage,
} from '../../../protocol/widget';
import { textOn } from '../../../protocol/contrast';
import type { CallbackName, InitPayload, Mirror, Utm, WidgetState } from '../shared/messages';
import { ApiError, createApi, type Api } from './api';
import type { Bridge } from './bridge';
import { RuleRunner, type InvitationRule } from './rules';
import { beep } from './sound';
import { VisitorSocket } from './socket';
import { chatOpen, emptyContact, initialState, mergeContact, mergeMessages, Store, type Invitation, type UiState } from './state';
import { load, save } from './storage';
import { chosen, dir, languageReady, t } from './i18n';

const VISIT_GAP_MS = 30 * 60 * 1000;
export const TEXT_MAX = 1000;

export class WidgetCore extends Store {
  readonly api: Api;
  private readonly socket: VisitorSocket;
  private readonly rules: RuleRunner;
  private page: PageInfo = { url: '' };
  private utm: Utm = {};
  private started = Date.now();
  private visits = 1;
  private cursor = 0;
  private sessionStarted = false;
  protected ready!: Promise<void>;
  private markReady!: () => void;
  /** Chats whose svc_onAccept already fired. */
  private readonly accepted = new Set<number>();
  private shownState: WidgetState = 'label';
  /** chatMode() as last told to the page; null before the first ready state (no change to tell yet). */
  private shownOnline: boolean | null = null;
  private mirrored = '';
  private agentTypingTimer: ReturnType<typeof setTimeout> | undefined;
  /** The visitor acted in the frame (launcher, minimize): move the keyboard focus with the change. */
  focusRequested = false;

  constructor(
    readonly widgetId: string,
    readonly bridge: Bridge,
  ) {
    super();
    this.api = createApi(widgetId);
    this.resetReady();
    this.socket = new VisitorSocket({
      url: () => {
        const u = new URL(`../ws/${encodeURIComponent(widgetId)}`, location.href);
        u.protocol = u.protocol === 'https:' ? 'wss:' : 'ws:';
        u.search = `?token=${encodeURIComponent(this.api.token ?? '')}&cursor=${this.cursor}`;
        return u.href;
      },
      frame: (f) => this.onFrame(f),
      connected: (up) => this.set({ connected: up }),
      // 4404: the widget was deleted or disabled while the page was open.
      refused: (code) => (code === 4404 ? this.gone() : void this.restart()),
    });
    this.rules = new RuleRunner(
      () => ({ url: this.page.url, started: this.started, visits: this.visits }),
      (rule) => this.ruleMatched(rule),
    );
    this.subscribe(() => this.afterChange());
  }

  /** The newest agent message the visitor has seen (the window open): the unread badge counts the later ones, on every page. */
  private get seenKey(): string {
    return `parley.${this.widgetId}.seen`;
  }

  private markSeen(messages: WidgetMessage[] = this.state.messages): void {
    const last = lastAgentMessage(messages);
    const seen = load(this.seenKey);
    if (seen === null || last > Number(seen)) save(this.seenKey, String(last));
  }

  private get tokenKey(): string {
    return `parley.${this.widgetId}.token`;
  }

  private resetReady(): void {
    this.ready = new Promise((resolve) => (this.markReady = resolve));
  }

  /** Resolves once the visitor session exists. */
  whenReady(): Promise<void> {
    return this.ready;
  }

  // ---- start ------------------------------------------------------------

  /** The loader's init (or the frame's own page when it runs alone): starts the session once. */
  init(init: InitPayload): void {
    if (this.sessionStarted) return;
    this.sessionStarted = true;
    const given = (init ?? {}) as Partial<InitPayload>;
    this.page = given.page && typeof given.page.url === 'string' ? given.page : { url: '' };
    this.utm = given.utm && typeof given.utm === 'object' ? given.utm : {};
    this.started = typeof given.started === 'number' ? given.started : Date.now();
    this.visits = countVisit(this.widgetId);
    if (load(`parley.${this.widgetId}.open`, 'session') === '1') this.set({ open: true });
    void this.startSession();
  }

  private async startSession(): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        this.api.token = load(this.tokenKey);
        const [res] = await Promise.all([
          this.api.call<SessionResponse>('POST', 'session', {
            ...(this.api.token ? { visitor_token: this.api.token } : {}),
            page: this.page,
            utm: this.utm,
            language: chosen,
          }),
          languageReady(),
        ]);
        return this.applySession(res);
      } catch (e) {
        if (e instanceof ApiError && (e.status === 404 || e.status === 403)) return this.gone();
        await sleep(Math.min(15_000, 1000 * 2 ** attempt));
      }
    }
  }

  /** The widget does not exist (any more) or is disabled: the loader takes everything off the page. */
  gone(): void {
    if (this.state.phase === 'gone') return;
    console.warn(`Parley: the chat widget "${this.widgetId}" was removed or disabled; its installation snippet no longer works.`);
    this.socket.stop();
    this.set({ phase: 'gone' });
    this.bridge.post('gone', null);
  }

  private applySession(res: SessionResponse): void {
    this.api.token = res.visitor_token;
    save(this.tokenKey, res.visitor_token);
    this.cursor = res.cursor;
    const chat = res.chat;
    if (chat && chat.status === 'active') this.accepted.add(chat.id);
    const { number, ...contact } = res.visitor;
    this.set({
      phase: 'ready',
      online: res.online,
      number,
      // What the page set before the session existed is not yet on the server: it wins.
      contact: mergeContact({ ...emptyContact(), ...contact }, this.state.contact),
      chat: chat ? { id: chat.id, status: chat.status, agent: chat.agent, rate: chat.rate } : null,
      messages: chat ? mergeMessages([], chat.messages) : [],
      unread: this.unreadOf(chat?.messages ?? []),
      color: res.settings.color ?? this.state.color,
      appearance: { ...this.state.appearance, ...res.settings.appearance },
      account_name: typeof res.settings.account_name === 'string' ? res.settings.account_name : '',
      launcher: !res.settings.hide_launcher,
      callback: res.settings.callback_enabled ? null : { result: 'fail', reason: 'Callback disabled' },
      callbackHours: res.settings.callback_hours ?? null,
      departmentChoice: res.settings.department_choice ?? 'off',
      departments: res.settings.departments ?? [],
    });
    this.socket.start();
    this.markReady();
    this.bridge.post('ready', this.mirror());
    // The window was open on the previous page of this tab: it opens again.
    if (this.state.open) this.fire('svc_onOpen');
    if (res.settings.rules) this.rules.set(res.settings.rules);
  }

  /** Agent messages newer than the last one seen (none while the window is open, or for a browser that never kept a count). */
  private unreadOf(messages: WidgetMessage[]): number {
    const seen = load(this.seenKey);
    if (this.state.open || seen === null) {
      this.markSeen(messages);
      return 0;
    }
    return messages.filter((m) => m.author === 'agent' && m.id > Number(seen)).length;
  }

  /** A fresh visitor (clearHistory) or a token the server no longer knows. */
  async restart(forget = false): Promise<void> {
    this.socket.stop();
    if (forget) save(this.tokenKey, null);
    this.api.token = null;
    this.accepted.clear();
    const { open, view, color } = this.state;
    this.resetReady();
    this.state = { ...initialState(), open, view, color };
    this.set({});
    await this.startSession();
  }

  // ---- server frames ----------------------------------------------------

  private onFrame(f: VisitorFrame): void {
    if (f.type === 'reset') return void this.resync();
    if (f.type === 'ready') {
      this.cursor = Math.max(this.cursor, f.data.cursor);
      this.set({ online: f.data.online });
      // Settings may have changed while away: startCall answers from this.
      return void this.callbackAvailability();
    }
    this.cursor = Math.max(this.cursor, f.cursor);
    switch (f.type) {
      case 'message.created':
        return this.received(f.data.message);
      case 'chat.updated': {
        const chat = f.data.chat;
        if (this.state.chat && chat.id < this.state.chat.id) return; // an older chat
        const finished = chat.status === 'finished';
        // A finished chat ends the invitation too: a next chat is the visitor's own.
        this.set({ chat, agentTyping: finished ? null : this.state.agentTyping, invitation: finished ? null : this.state.invitation });
        if (chat.status === 'active' && !this.accepted.has(chat.id)) {
          this.accepted.add(chat.id);
          this.fire('svc_onAccept', chat.agent ? { name: chat.agent.name, photo: chat.agent.photo } : undefined);
        }
        return;
      }
      case 'typing':
        if (f.data.typing) {
          clearTimeout(this.agentTypingTimer);
          this.agentTypingTimer = setTimeout(() => this.set({ agentTyping: null }), 15_000);
        }
        return this.set({ agentTyping: f.data.typing ? (f.data.agent ?? this.state.chat?.agent ?? { id: 0, name: t('agent'), photo: null }) : null });
      case 'status':
        this.set({ online: f.data.online });
        return void this.callbackAvailability();
      case 'call.updated': {
        const call = f.data.call;
        if (call.status === 'end' || call.status === 'error') {
          // The verdict on availability given during the call is stale now: startCall tries (the server decides) while it is asked again.
          const disabled = this.state.callback?.result === 'fail' && this.state.callback.reason === 'Callback disabled';
          this.set({ call: { ...call, phone: this.state.call?.phone }, callback: disabled ? this.state.callback : null });
          void this.callbackAvailability();
          this.fire('svc_onCallEnd', call.status === 'end' ? { result: 'ok' } : { result: 'fail', reason: call.reason ?? 'Call failed' });
        } else this.set({ call: { ...call, phone: this.state.call?.phone } });
        return;
      }
    }
  }

  /** A `reset` frame: the socket's cursor is older than the events the server keeps, so read the state again. */
  private async resync(): Promise<void> {
    try {
      const res = await this.api.call<SessionResponse>('POST', 'session', { visitor_token: this.api.token, page: this.page, utm: this.utm, language: chosen });
      // Another visitor (our token unknown): the socket will refuse it and restart() takes over.
      if (res.visitor_token !== this.api.token) return;
      const chat = res.chat;
      const same = chat !== null && chat.id === this.state.chat?.id;
      this.set({
        online: res.online,
        chat: chat ? { id: chat.id, status: chat.status, agent: chat.agent, rate: chat.rate } : null,
        messages: chat ? mergeMessages(same ? this.state.messages : [], chat.messages) : [],
      });
    } catch {
      // What is shown stays; the next reconnect or page load reads the state again.
    }
  }

  protected received(m: WidgetMessage): void {
    const known = this.state.messages.some((x) => x.id === m.id);
    if (known) return;
    const patch: Partial<UiState> = { messages: mergeMessages(this.state.messages, [m]) };
    if (m.author === 'visitor') {
      // Our own message, back through the socket before its POST answered: it replaces its placeholder.
      const same = this.state.pending.find((p) => p.status === 'sending' && (p.text ?? p.file_name) === (m.text ?? m.file_name));
      if (same) patch.pending = this.state.pending.filter((p) => p !== same);
    }
    if (!this.state.chat || m.chat_id > this.state.chat.id) patch.chat = { id: m.chat_id, status: 'pending', agent: null, rate: null };
    if (m.author === 'agent') {
      patch.agentTyping = null;
      if (!this.state.open) patch.unread = this.state.unread + 1;
      else this.markSeen([m]);
      beep();
      this.set(patch);
      this.fire('svc_onMessageReceived', m);
    } else this.set(patch);
  }

  // ---- mirror, state, callbacks ----------------------------------------

  mirror(): Mirror {
    const s = this.state;
    return {
      mode: s.online ? 'online' : 'offline',
      contact: { ...s.contact },
      unread: s.unread,
      callback: s.callback,
      calling: s.call !== null && s.call.status !== 'end' && s.call.status !== 'error',
      open: s.open,
      label: launcherLabel(s),
      aria: s.unread ? t('unread', { label: launcherLabel(s), n: s.unread }) : launcherLabel(s),
      launcher: s.launcher,
      look: launcherCss(s),
      at: windowPlace(s),
      color: s.color ?? DEFAULT_WIDGET_COLOR,
      hold: s.offlineHold,
    };
  }

  fire(name: CallbackName, ...args: unknown[]): void {
    this.bridge.post('callback', { name, args });
  }

  widgetState(): WidgetState {
    const s = this.state;
    if (!s.open) return chatOpen(s.chat) ? 'chat/min' : 'label';
    if (s.view === 'call') return chatOpen(s.chat) ? 'chat/call' : 'call';
    return 'chat';
  }

  private afterChange(): void {
    if (this.state.phase !== 'ready') return;
    const mirror = JSON.stringify(this.mirror());
    if (mirror !== this.mirrored) {
      this.mirrored = mirror;
      this.bridge.post('state', this.mirror());
    }
    const now = this.widgetState();
    // Chat going offline or online (agents, working hours) is a change of state too: the page reads chatMode() in the callback.
    const modeChanged = this.shownOnline !== null && this.shownOnline !== this.state.online;
    this.shownOnline = this.state.online;
    if (now !== this.shownState || modeChanged) {
      this.shownState = now;
      this.fire('svc_onChangeState', now);
    }
  }

  /** setContactInfo: getContactInfo() answers with it at once; saving it waits for the session (widget.saveContact). */
  noteContact(given: Partial<ContactInfo>): void {
    this.set({ contact: mergeContact(this.state.contact, given) });
  }

  // ---- window -------------------------------------------------------------

  openWindow(view: 'chat' | 'call' = 'chat'): void {
    const was = this.state.open;
    // The visitor has the chat in front of him: no invitation on this page view.
    this.rules.finish();
    this.set({ open: true, view, unread: 0, notice: null });
    this.markSeen();
    save(`parley.${this.widgetId}.open`, '1', 'session');
    if (!was) this.fire('svc_onOpen');
    if (view === 'call') void this.callbackAvailability();
  }

  closeWindow(): void {
    if (!this.state.open) return;
    this.set({ open: false, contactsOpen: false });
    save(`parley.${this.widgetId}.open`, null, 'session');
    this.fire('svc_onClose');
  }

  setColor(color: string): void {
    if (/^#[0-9a-f]{3,8}$/i.test(color) || /^(rgb|hsl)a?\([\d\s.,%]+\)$/i.test(color)) this.set({ color });
  }

  // ---- invitations --------------------------------------------------------

  showInvitation(inv: Invitation): void {
    this.rules.finish();
    this.set({ invitation: { text: inv.text.slice(0, TEXT_MAX), ...(inv.department_id !== undefined ? { department_id: inv.department_id } : {}) } });
    this.openWindow('chat');
  }

  setRules(input: unknown): void {
    this.rules.set(input);
  }

  setPage(page: PageInfo): void {
    this.page = page;
    this.rules.check();
  }

  private ruleMatched(rule: InvitationRule): boolean {
    // Not while the visitor is chatting, or nobody could answer.
    if (this.state.phase !== 'ready' || this.state.open || chatOpen(this.state.chat) || !this.state.online) return false;
    this.showInvitation(rule.action);
    return true;
  }

  // ---- callback calls -------------------------------------------------------

  async callbackAvailability(): Promise<CallbackAvailability> {
    let result: CallbackAvailability;
    try {
      result = await this.api.call<CallbackAvailability>('GET', 'callback');
    } catch {
      result = { result: 'fail', reason: 'Callback unavaiable' };
    }
    this.set({ callback: result });
    return result;
  }
}

/** The CSS of the launcher the loader draws on the page (in a shadow root: the page's styles do not reach it). */
const launcherCss = (s: UiState): string => {
  const a = s.appearance;
  const round = a.launcher === 'button';
  return (
    // The element's place: in the shadow root, so a page's own CSS on #svc_chat_widget wins (it may hide or move it).
    `:host{position:fixed;${a.position === 'left' ? 'left' : 'right'}:${a.offset_x}px;bottom:${a.offset_y}px;z-index:2147483646}` +
    `button{position:relative;display:inline-flex;align-items:center;gap:8px;padding:${round ? '16px' : '12px 18px'};border:0;border-radius:${round ? '50%' : '24px'};` +
    `background:${s.color ?? DEFAULT_WIDGET_COLOR};color:${textOn(s.color ?? DEFAULT_WIDGET_COLOR)};direction:${dir()};` +
    'font:600 15px/1.2 system-ui,sans-serif;white-space:nowrap;cursor:pointer;box-shadow:0 4px 14px rgba(0,0,0,.25)}' +
    'svg{width:20px;height:20px;fill:currentColor}[hidden]{display:none}:focus-visible{outline:2px solid #1f2328;outline-offset:2px}' +
    'b{position:absolute;top:-6px;inset-inline-end:-6px;min-width:20px;height:20px;padding:0 6px;box-sizing:border-box;border-radius:10px;background:#d93025;font-size:12px;line-height:20px;text-align:center}' +
    (round ? 'span{display:none}' : '')
  );
};

/**
 * The chat window's iframe on the page, its whole style (the loader sets it as is, then its size): fixed above
 * everything, on the launcher's side, its 16 px margins inside the frame. Kept here, not in the loader: its budget.
 */
const windowPlace = (s: UiState): string => {
  const a = s.appearance;
  return `position:fixed;width:0;height:0;border:0;margin:0;padding:0;z-index:2147483647;background:transparent;color-scheme:normal;${a.position === 'left' ? 'left' : 'right'}:${Math.max(0, a.offset_x - 16)}px;bottom:${Math.max(0, a.offset_y - 16)}px`;
};

/** The default launcher's text. */
export const launcherLabel = (s: UiState): string => s.appearance.launcher_text ?? t(s.online ? 'chatWithUs' : 'leaveUs');

const lastAgentMessage = (messages: WidgetMessage[]): number => messages.reduce((n, m) => (m.author === 'agent' && m.id > n ? m.id : n), 0);

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Visits of this browser (a page view 30 minutes or more after the last one starts a new visit), this one included. */
function countVisit(widgetId: string): number {
  const key = `parley.${widgetId}.visits`;
  const [count, last] = (load(key) ?? '0:0').split(':').map(Number);
  const now = Date.now();
  const visits = (count || 0) + (now - (last || 0) >= VISIT_GAP_MS ? 1 : 0);
  save(key, `${visits}:${now}`);
  return Math.max(1, visits);
}
