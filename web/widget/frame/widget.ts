/**
 * The chat frame's controller as the views and the loader's commands use it:
 * the core (core.ts) plus what the visitor does — write (text, files with the
 * size limit, typing notifications), introduce himself, leave an offline
 * message (the form, or sendOfflineMessage through the outbox), rate the
 * chat, ask for a callback call.
 */
import { WIDGET_UPLOAD_MAX_BYTES, type ContactInfo, type VisitorMessageRequest, type WidgetMessage } from '../../../protocol/widget';
import { TEXT_MAX, WidgetCore } from './core';
import { asksDepartment, chatOpen, mergeContact } from './state';
import { lang, t } from './i18n';
import { ApiError } from './api';
import { offlineBody, Outbox } from './outbox';

export class Widget extends WidgetCore {
  private typingSent = false;
  private typingTimer: ReturnType<typeof setTimeout> | undefined;
  private pendingKey = 0;
  /** sendOfflineMessage's messages until the server has them (outbox.ts); what an earlier page left is sent once the session exists. */
  private readonly outbox = new Outbox(`parley.${this.widgetId}.outbox`, this.api, () => this.whenReady(), {
    hold: (reason) => this.set({ offlineHold: reason }),
    gone: () => this.gone(),
  });

  // ---- sending ----------------------------------------------------------

  async sendText(raw: string): Promise<void> {
    const text = raw.trim().slice(0, TEXT_MAX);
    if (!text) return;
    this.stopTyping();
    await this.send({ type: 'text', text }, { text });
  }

  /** Whether the file is over the upload limit (then the visitor is told so). */
  fileTooBig(file: File): boolean {
    const big = file.size > WIDGET_UPLOAD_MAX_BYTES;
    this.set({ notice: big ? t('tooBig', { mb: Math.round(WIDGET_UPLOAD_MAX_BYTES / 1024 / 1024) }) : null });
    return big;
  }

  async sendFile(file: File): Promise<void> {
    if (!this.fileTooBig(file)) await this.send(null, { file_name: file.name }, file);
  }

  private async send(body: VisitorMessageRequest | null, shown: { text?: string; file_name?: string }, file?: File): Promise<void> {
    const key = ++this.pendingKey;
    this.set({ pending: [...this.state.pending, { key, ...shown, status: 'sending' }], notice: null });
    const chat = this.state.chat;
    const first = !chatOpen(chat) || !this.state.messages.some((m) => m.chat_id === chat?.id && m.author === 'visitor');
    try {
      await this.ready;
      if (file) {
        const up = await this.api.upload(file);
        body = { type: up.type, file: up.file, file_name: up.file_name, file_size: up.file_size };
      }
      const inv = this.state.invitation;
      if (inv && !chatOpen(this.state.chat) && body) {
        body = { ...body, invite: inv.text, ...(inv.department_id !== undefined ? { department_id: inv.department_id } : {}) };
      }
      // The department the visitor picked opens the chat with it (an invitation's department wins: asksDepartment).
      if (body && asksDepartment(this.state) && this.state.department !== null) body = { ...body, department_id: this.state.department };
      const message = await this.api.call<WidgetMessage>('POST', 'messages', body);
      this.set({ pending: this.state.pending.filter((p) => p.key !== key) });
      this.received(message);
      if (first) {
        this.fire('svc_onMessageSent', message.text ?? message.file_name ?? '');
        this.fire('svc_onClientStartChat');
      }
    } catch (e) {
      const error = errorText(e);
      this.set({ pending: this.state.pending.map((p) => (p.key === key ? { ...p, status: 'failed', error } : p)) });
    }
  }

  dismissPending(key: number): void {
    this.set({ pending: this.state.pending.filter((p) => p.key !== key) });
  }

  /** The visitor is typing: tells the agent (at most once per burst), and that it stopped after 3 s of quiet. */
  typing(): void {
    if (!chatOpen(this.state.chat)) return;
    if (!this.typingSent) {
      this.typingSent = true;
      void this.api.call('POST', 'typing', { typing: true }).catch(() => undefined);
    }
    clearTimeout(this.typingTimer);
    this.typingTimer = setTimeout(() => this.stopTyping(), 3000);
  }

  private stopTyping(): void {
    clearTimeout(this.typingTimer);
    if (!this.typingSent) return;
    this.typingSent = false;
    void this.api.call('POST', 'typing', { typing: false }).catch(() => undefined);
  }

  // ---- forms ---------------------------------------------------------------

  /** setContactInfo, or the contacts form (then `introduced`: svc_onIntroduction). */
  async saveContact(given: Partial<ContactInfo>, introduced: boolean, emailSignature?: string): Promise<void> {
    const contact = mergeContact(this.state.contact, given);
    this.set({ contact, contactsOpen: false });
    await this.ready;
    // email_signature: the page's identity signature of the e-mail (setContactInfo), so it counts as proved.
    await this.api.call('POST', 'contact', emailSignature ? { ...contact, email_signature: emailSignature } : contact);
    if (introduced) this.fire('svc_onIntroduction', { ...contact });
  }

  /** The offline form: the visitor sees at once whether it was stored (null) or why not. */
  async sendOffline(o: { name?: string; email?: string; phone?: string; description?: string; message: string }): Promise<string | null> {
    await this.ready;
    try {
      await this.api.call('POST', 'offline', offlineBody(o));
      // The server keeps these details on the visitor: the chat's contact prompt must not ask for them again.
      this.set({ offlineSent: true, contact: mergeContact(this.state.contact, { client_name: o.name, email: o.email, phone: o.phone }) });
      return null;
    } catch (e) {
      return errorText(e);
    }
  }

  /**
   * "E-mail me this conversation": mailed to the address the visitor gave (the server picks it, never the page):
   * `sent` once the address is proved, else `confirm` (a link to open was mailed there first); mails in the widget's language.
   */
  async mailTranscript(): Promise<'sent' | 'confirm' | 'failed'> {
    try {
      const answer = await this.api.call<{ result?: string }>('POST', 'transcript', { lang });
      return answer.result === 'confirmation_sent' ? 'confirm' : 'sent';
    } catch {
      return 'failed';
    }
  }

  /** sendOfflineMessage (already answered ok): kept until stored. */
  queueOffline(o: { name?: string; email?: string; phone?: string; description?: string; message: string }): void {
    this.outbox.add(offlineBody(o));
  }

  /** Sends what an earlier page left in the outbox (the session exists now). */
  flushOffline(): void {
    void this.outbox.flush();
  }

  async rate(rate: 'positive' | 'negative'): Promise<void> {
    const chat = this.state.chat;
    if (!chat) return;
    this.set({ chat: { ...chat, rate } });
    await this.api.call('POST', 'rate', { rate }).catch(() => this.set({ chat, notice: t('rateFailed') }));
  }

  async startCall(phone: string): Promise<void> {
    await this.ready;
    this.set({ call: { status: 'requested', phone } });
    let reason: string;
    try {
      const r = await this.api.call<{ result: 'ok'; call_id: number } | { result: 'fail'; reason: string }>('POST', 'callback', { phone });
      if (r.result === 'ok') {
        this.set({ call: { id: r.call_id, status: 'start', phone } });
        this.fire('svc_onCallStart');
        return;
      }
      reason = r.reason;
    } catch (e) {
      reason = e instanceof Error ? e.message : 'Callback unavaiable';
    }
    this.set({ call: { status: 'error', reason, phone } });
    this.fire('svc_onCallEnd', { result: 'fail', reason });
  }
}

/** What a failed request means to the visitor, in his language (the server's own sentence is English: shown as is in English only). */
export function errorText(e: unknown): string {
  if (!(e instanceof ApiError)) return t('noNetwork');
  if (e.status === 429) return t('tooFast');
  return lang === 'en' ? e.message : t('failed');
}
