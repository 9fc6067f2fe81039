/**
 * The widget protocol: what the chat frame (web/widget/frame) and the server
 * (server/routes/widget) exchange, and what the loader (the script on the
 * customer's page) and the frame exchange through postMessage. Both sides
 * import these types; change them here first.
 *
 * HTTP (all under $PUBLIC_URL/widget, JSON bodies, visitor calls carry
 * `Authorization: Bearer <visitor_token>`; errors are {error:{code,message}}):
 *   GET  /widget/<widget_id>.js                     the loader (tiny, cacheable)
 *   GET  /widget/frame/<widget_id>                  the chat frame's HTML (its JS/CSS under /widget/assets/)
 *   POST /widget/api/<widget_id>/session            SessionRequest → SessionResponse (creates or resumes the visitor)
 *   POST /widget/api/<widget_id>/messages           VisitorMessageRequest → 201 WidgetMessage
 *   POST /widget/api/<widget_id>/typing             {typing:boolean} → 204
 *   POST /widget/api/<widget_id>/contact            ContactInfo & {email_signature?} → 200 {result:'ok'} (contacts form, setContactInfo)
 *   POST /widget/api/<widget_id>/custom-data        {fields: CustomDataField[]} → {result:'ok', dropped?} | 400
 *   POST /widget/api/<widget_id>/user-token         {token, signature?} → {result:'ok', token}
 *   POST /widget/api/<widget_id>/page               PageInfo → 204 (sendPageTitle, navigation)
 *   POST /widget/api/<widget_id>/attributes         {attributes: Record<string,string|number|boolean>} → 204
 *   POST /widget/api/<widget_id>/offline            OfflineMessageRequest → {result:'ok'} | 400 {error}
 *   POST /widget/api/<widget_id>/rate               {rate:'positive'|'negative'} → 204
 *   POST /widget/api/<widget_id>/transcript         {lang?} → {result:'ok', chat_id}: the chat mailed to the visitor's own
 *                                                   proved e-mail; {result:'confirmation_sent', chat_id}: a link to open
 *                                                   was mailed there first; 409 {error} without an address or a chat,
 *                                                   429 {error} over the caps
 *   POST /widget/api/<widget_id>/uploads            raw file body (Content-Type = file type, X-File-Name header: the name
 *                                                   URI-encoded, as headers are Latin-1) → UploadResponse; at most
 *                                                   WIDGET_UPLOAD_MAX_BYTES (the frame refuses bigger files before sending)
 *   GET  /widget/api/<widget_id>/callback           → CallbackAvailability
 *   POST /widget/api/<widget_id>/callback           {phone} → {result:'ok', call_id} | {result:'fail', reason}
 *   GET  /widget/uploads/<name>                     an uploaded file
 * WebSocket:
 *   GET  /widget/ws/<widget_id>?token=<visitor_token>&cursor=<last cursor>  → VisitorFrame stream
 */

export interface PageInfo {
  url: string;
  title?: string;
  referrer?: string;
}

export interface SessionRequest {
  /** The token this browser got before (localStorage of the frame), if any. */
  visitor_token?: string;
  page: PageInfo;
  /** utm_* parameters of the page URL, without the utm_ prefix. */
  utm?: Partial<Record<'source' | 'medium' | 'campaign' | 'content' | 'term', string>>;
  /** The language the widget shows the visitor (its fixed one, else the browser's it speaks): shown to agents. */
  language?: WidgetLanguage;
}

export interface WidgetAgent {
  id: number;
  name: string;
  photo: string | null;
}

export interface WidgetMessage {
  id: number;
  chat_id: number;
  author: 'visitor' | 'agent' | 'system';
  agent?: WidgetAgent;
  type: string;
  text?: string;
  file?: string;
  file_name?: string;
  file_size?: number;
  /** The file was freed by an administrator: the message stays, its file answers 404. */
  file_removed?: true;
  thumb?: string;
  latitude?: number;
  longitude?: number;
  created_at: number;
}

export interface WidgetChat {
  id: number;
  status: 'pending' | 'active' | 'finished';
  /** The agent who accepted (pressed Reply), once accepted. */
  agent: WidgetAgent | null;
  rate: 'positive' | 'negative' | null;
  messages: WidgetMessage[];
}

export interface ContactInfo {
  client_name: string | null;
  email: string | null;
  phone: string | null;
  description: string | null;
}

/** The languages the widget speaks (ar is written right to left). */
export const WIDGET_LANGUAGES = ['en', 'ru', 'es', 'de', 'fr', 'pt', 'tr', 'uk', 'ar'] as const;
export type WidgetLanguage = (typeof WIDGET_LANGUAGES)[number];

/** How a widget looks and speaks (an admin sets it per widget); null texts = the translated defaults. */
export interface WidgetAppearance {
  /** The window's title while no agent has taken the chat (default "Support"). */
  title: string | null;
  /** Shown as the first message when the window opens on no chat. */
  greeting: string | null;
  /** The status line under the title while nobody is online (default "Offline"). */
  away_text: string | null;
  /** The offline form's text (default "Leave a message and we will get back to you."). */
  offline_text: string | null;
  /** The launcher's text (default "Chat with us" / "Leave us a message"). */
  launcher_text: string | null;
  /** The page corner the launcher and the window sit in. */
  position: 'right' | 'left';
  /** Pixels from that side and from the bottom of the page (0–200). */
  offset_x: number;
  offset_y: number;
  /** `label`: a button with text; `button`: a round button with the icon only. */
  launcher: 'label' | 'button';
  /** https URL of a picture shown in the window's header instead of the initial. */
  logo: string | null;
  /** `auto`: the first of the browser's languages the widget speaks (else English); or one fixed language. */
  language: 'auto' | WidgetLanguage;
}

export const DEFAULT_APPEARANCE: WidgetAppearance = {
  title: null,
  greeting: null,
  away_text: null,
  offline_text: null,
  launcher_text: null,
  position: 'right',
  offset_x: 16,
  offset_y: 16,
  launcher: 'label',
  logo: null,
  language: 'auto',
};

export interface WidgetSettings {
  /** The company's name (Admin → Settings), "" while not set: the window's title when the appearance sets none. */
  account_name: string;
  color: string | null;
  appearance: WidgetAppearance;
  /** Active-invitation rules (svc_api.setRules replaces them for the page). */
  rules: unknown;
  callback_enabled: boolean;
  /**
   * When callbacks may be asked for (Admin → Settings → Callbacks): mon…sun → ["HH:MM","HH:MM"] ranges in the
   * IANA `timezone`, `hours: null` always. While no agent is online the callback form says them instead of "in a moment".
   */
  callback_hours: { timezone: string; hours: Partial<Record<'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun', string[][]>> | null };
  /** The admin hid the default launcher: the page opens the chat from its own button (svc_api.open()). */
  hide_launcher: boolean;
  /** Whether the visitor picks a department before the first message: off, optional or required (docs/ROUTING.md). */
  department_choice: 'off' | 'optional' | 'required';
  /** The departments to pick from (empty when the choice is off). */
  departments: WidgetDepartment[];
}

/** A department the visitor may pick: its name, and its name in the widget's languages ({"de": "Vertrieb"}). */
export interface WidgetDepartment {
  id: number;
  name: string;
  names: Record<string, string>;
}

export interface SessionResponse {
  visitor_token: string;
  visitor: { number: number } & ContactInfo;
  online: boolean;
  /** The visitor's open chat, or the last one if finished (for rating), or null. */
  chat: WidgetChat | null;
  /** Resume the socket from here. */
  cursor: number;
  settings: WidgetSettings;
}

export interface VisitorMessageRequest {
  type: string;
  text?: string;
  file?: string;
  file_name?: string;
  file_size?: number;
  /** Text of the proactive invitation the visitor answers, shown to agents as context. */
  invite?: string;
  department_id?: number;
}

export interface CustomDataField {
  title?: string;
  content?: string;
  link?: string;
  key?: string;
}

export interface OfflineMessageRequest {
  name?: string;
  email?: string;
  phone?: string;
  description?: string;
  message: string;
}

/** The largest file a visitor may send through the widget (the frame says so before uploading; the server enforces it). */
export const WIDGET_UPLOAD_MAX_BYTES = 10 * 1024 * 1024;

export interface UploadResponse {
  file: string;
  file_name: string;
  file_size: number;
  type: 'photo' | 'video' | 'audio' | 'document';
}

export type CallbackAvailability = { result: 'ok' } | { result: 'fail'; reason: 'Callback disabled' | 'Callback unavaiable' };

/** Frames of the visitor socket; `cursor` is the outbox id (resume with it). */
export type VisitorFrame =
  | { type: 'ready'; data: { cursor: number; online: boolean } }
  /** Before `ready`, nothing replayed: the cursor is older than the events the server keeps (retention), or more than 1,000 events behind; read the session again. */
  | { type: 'reset'; data: { reason: 'cursor_expired' | 'too_far_behind' } }
  | { type: 'message.created'; cursor: number; data: { message: WidgetMessage } }
  /** A message changed after it was sent (same id): replace it. */
  | { type: 'message.updated'; cursor: number; data: { message: WidgetMessage } }
  | { type: 'chat.updated'; cursor: number; data: { chat: Omit<WidgetChat, 'messages'> } }
  | { type: 'typing'; cursor: number; data: { chat_id: number; typing: boolean; agent?: WidgetAgent } }
  | { type: 'status'; cursor: number; data: { online: boolean } }
  | { type: 'call.updated'; cursor: number; data: { call: { id: number; status: string; reason?: string } } };

/** postMessage envelope between the loader (page) and the frame; origin checked on both sides. */
export const MESSAGE_NAMESPACE = 'parley-widget';

/** The widget's colour when its channel has none (the launcher, the header, svc_config.widget_color). */
export const DEFAULT_WIDGET_COLOR = '#1a73e8';

/** setCustomData keeps the first this many fields; the answer says how many more were dropped. */
export const MAX_CUSTOM_FIELDS = 10;

export interface Envelope<E extends string = string, P = unknown> {
  ns: typeof MESSAGE_NAMESPACE;
  event: E;
  payload: P;
  /** For calls that answer (getVisitorNumber, isCallbackEnabled, ...). */
  id?: number;
}
