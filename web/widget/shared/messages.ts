/**
 * What the loader (on the customer's page) and the chat frame say to each other
 * through postMessage, inside protocol/widget.ts's namespaced Envelope. The
 * loader only accepts envelopes from the frame's window and origin; the frame
 * only from its parent window with the origin the loader gave it (the frame
 * URL's #fragment).
 *
 * Order of a page view: the loader puts the page's origin and `init`'s
 * details in the frame URL's #fragment (a frame whose browser confirms the
 * parent's origin starts its session from them at once); frame → `hello`;
 * loader → `init`, then every svc_api call queued so far, in order; frame → `ready` once its visitor session exists
 * (the loader calls svc_onLoadCallback then), and `state` whenever the mirrored
 * state changes.
 */
import type { CallbackAvailability, ContactInfo, PageInfo } from '../../../protocol/widget';

export type UtmKey = 'source' | 'medium' | 'campaign' | 'content' | 'term';
export type Utm = Partial<Record<UtmKey, string>>;

export interface InitPayload {
  page: PageInfo;
  utm: Utm;
  /** When the page view started (epoch ms), for the seconds_on_page rule condition. */
  started: number;
}

/** Commands of the loader (one per svc_api call that needs the frame). */
export interface LoaderCommands {
  init: InitPayload;
  page: PageInfo;
  /** The loader shows the open chat full screen (a phone-width page): no margins, no corners. */
  layout: { full: boolean };
  /** focus: the visitor pressed the default launcher (the frame moves the keyboard focus into the window). */
  open: { start?: string; focus?: boolean };
  close: null;
  /** email_signature: HMAC of the e-mail by the customer's server, for widgets with an identity secret. */
  contact: Partial<Record<'name' | 'email' | 'phone' | 'description' | 'email_signature', string>>;
  customData: unknown[];
  rules: unknown;
  /** signature: HMAC of the token by the customer's server, for channels with an identity secret. */
  userToken: { token: string; signature?: string };
  invite: { text: string; department_id?: number };
  call: { phone: string };
  offline: { name?: string; email?: string; phone?: string; description?: string; message: string };
  attributes: Record<string, unknown>;
  color: string;
  clearHistory: null;
  /** Answered with reply [err, number]. */
  number: null;
  /** Answered with reply [CallbackAvailability]. */
  callbackEnabled: null;
}

export type LoaderCommand = { [K in keyof LoaderCommands]: { event: K; payload: LoaderCommands[K]; id?: number } }[keyof LoaderCommands];

/** The frame's state the loader keeps a copy of, so svc_api can answer synchronously. */
export interface Mirror {
  mode: 'online' | 'offline';
  contact: ContactInfo;
  unread: number;
  /** null until the frame asked the server. */
  callback: CallbackAvailability | null;
  /** A callback call is under way. */
  calling: boolean;
  /** The chat window is open (the loader hides its launcher meanwhile). */
  open: boolean;
  /** The default launcher: its text, its accessible name (with the unread count), and whether the widget shows it (an admin may hide it). */
  label: string;
  aria: string;
  launcher: boolean;
  /** The launcher's CSS (in its shadow root on the page): the widget colour and look come with the frame. */
  look: string;
  /** The chat window's iframe style on the page, whole (CSS: fixed, layer, its side and bottom from the widget's appearance); the loader adds its size. */
  at: string;
  /** The widget's colour as shown (the channel's, setWidgetColor's, or the default): svc_config.widget_color (absent before the frame is ready: the server wrote the channel's into the loader). */
  color?: string;
  /** Why sendOfflineMessage cannot be sent now (the server's limit reached), or null (absent before the frame is ready). */
  hold?: string | null;
}

export interface FrameEvents {
  hello: null;
  ready: Mirror;
  state: Mirror;
  /** The size the frame wants: the launcher's box when closed, the chat window's when open. */
  size: { open: boolean; width: number; height: number };
  /** Call the page's svc_on* callback `name` with `args`. */
  callback: { name: CallbackName; args: unknown[] };
  /** Answer to the command with the same envelope id: the arguments of the page's callback. */
  reply: unknown[];
  /** The widget does not exist (any more), or an admin disabled it: the loader removes everything it added. */
  gone: null;
}

export type CallbackName =
  | 'svc_onOpen'
  | 'svc_onClose'
  | 'svc_onMessageSent'
  | 'svc_onAccept'
  | 'svc_onIntroduction'
  | 'svc_onCallStart'
  | 'svc_onCallEnd'
  | 'svc_onChangeState'
  | 'svc_onMessageReceived'
  | 'svc_onClientStartChat';

/** svc_onChangeState's argument (spec: States). */
export type WidgetState = 'chat' | 'call' | 'chat/call' | 'label' | 'chat/min';
