/**
 * Parley widget: TypeScript declarations of the page API (docs/WIDGET.md).
 * Served at /widget/svc-api.d.ts. Use it in a page's TypeScript with a
 * triple-slash reference or by adding it to "files" in tsconfig.json:
 *
 *   /// <reference path="./svc-api.d.ts" />
 *   window.svc_onLoadCallback = () => svc_api.open();
 *
 * `svc_api` exists as soon as the loader script has run; calls made before the
 * chat is ready are kept and run in order. No function ever throws.
 *
 * Callbacks (the page's svc_on* functions and those it passes to svc_api) are
 * declared as methods, so a page's handler typed more narrowly (a required
 * argument, its own message type) is accepted under strictFunctionTypes, and
 * a framework module that declares the same window properties itself merges
 * with these declarations instead of clashing.
 */

declare namespace SvcApi {
  type Ok = { result: 'ok' };
  type Fail = { result: 'fail'; reason: string };
  type Result = Ok | Fail;
  /** A callback the page passes: checked bivariantly, as a method is, so a narrower handler fits. */
  type Callback<A extends unknown[]> = { bivariant(...args: A): void }['bivariant'];

  /** The visitor's contact details; null for what is unknown. */
  interface ContactInfo {
    client_name: string | null;
    email: string | null;
    phone: string | null;
    description: string | null;
  }

  /** null (or a field left out, or an empty string) leaves that detail as it is. */
  interface ContactInput {
    name?: string | null;
    email?: string | null;
    phone?: string | null;
    description?: string | null;
  }

  /** A field of setCustomData, shown to agents in array order. */
  interface CustomDataField {
    /** Title above the field. */
    title?: string;
    /** The field's text (shown as text, never as HTML). */
    content?: string;
    /** http(s) URL opened on click. */
    link?: string;
    /** Bold text before a colon. */
    key?: string;
  }

  interface InvitationRule {
    id: string | number;
    conditions?: {
      seconds_on_page?: number;
      url_contains?: string;
      url_matches?: string;
      min_visits?: number;
    };
    action: { type: 'invitation'; text: string; department_id?: number };
  }

  interface Rules {
    rules: InvitationRule[];
  }

  interface OfflineMessage {
    name?: string;
    email?: string;
    phone?: string;
    description?: string;
    /** Required. */
    message: string;
  }

  /** reason: 'Callback disabled', 'Callback unavaiable' (sic, as the original spells it), or why the widget is gone. */
  type CallbackAvailability = Ok | Fail;

  /** svc_onChangeState's argument. */
  type WidgetState = 'label' | 'chat/min' | 'chat' | 'call' | 'chat/call';

  type Utm = Partial<Record<'source' | 'medium' | 'campaign' | 'content' | 'term', string>>;

  interface Agent {
    name: string;
    photo: string | null;
  }

  interface ReceivedMessage {
    id: number;
    chat_id: number;
    author: 'agent' | 'visitor' | 'system';
    agent?: { id: number; name: string; photo: string | null } | null;
    type: string;
    text?: string;
    file?: string;
    file_name?: string;
    created_at: number;
    [field: string]: unknown;
  }

  /** setCustomData's answer: `dropped` (only when some were) counts the fields past the first 10, which were left out. */
  type CustomDataResult = { result: 'ok'; dropped?: number } | Fail;

  interface Api {
    /** Opens the chat window; `{start: 'call'}` opens the callback form. Ok whenever the widget runs (also before it is ready, offline, already open); a failure once it is gone. */
    open(options?: { start?: 'call' }): Result;
    /** Minimizes the chat window. Ok whenever the widget runs (also when already minimized); a failure once it is gone. */
    close(): Result;
    /** 'online' when an agent of the widget is online; follows status changes live. */
    chatMode(): 'online' | 'offline';
    getContactInfo(): ContactInfo;
    /** Calls back with the visitor's sequential number (1, 2, 3 ...). */
    getVisitorNumber(callback: Callback<[error: string | null, visitorNumber: number | null]>): void;
    setContactInfo(info: ContactInput): Result;
    /** At most 10 fields are kept (see CustomDataResult). */
    setCustomData(fields: CustomDataField[]): CustomDataResult;
    /** The rules as described by Rules; any object is taken (rules read from a CMS or JSON), invalid rules are skipped with a console warning. */
    setRules(rules: Rules | InvitationRule[] | object): Result;
    /** `signature`: hex HMAC-SHA256 of the token, for widgets with identity verification. */
    setUserToken(token: string | number, signature?: string): { result: 'ok'; token: string } | { result: 'fail'; token: string | false; reason?: string };
    showProactiveInvitation(text: string, departmentId?: number): Result;
    startCall(phone: string): Result;
    isCallbackEnabled(callback: Callback<[result: CallbackAvailability]>): void;
    sendOfflineMessage(message: OfflineMessage): Ok | { result: 'fail'; error: string };
    // Older and newer revisions of the API.
    getUtm(): Utm;
    getUnreadMessagesCount(): number;
    clearHistory(): void;
    /** #rgb, #rrggbb, rgb() or hsl(). */
    setWidgetColor(color: string): void;
    sendPageTitle(title?: string): void;
    setClientAttributes(attributes: Record<string, string | number | boolean>): void;
  }

  interface Config {
    widget_id: string;
    /** Follows chatMode() live. */
    chat_mode: 'online' | 'offline';
    /** The widget's colour as shown (#rrggbb from the channel, or what setWidgetColor set), for the page's own launcher. */
    widget_color: string;
  }
}

// var, not const: pages read them as window.svc_api and window.svc_config too.
/** The page API (every function exists as soon as the loader has run). */
// eslint-disable-next-line no-var -- a var is what puts it on window's type
declare var svc_api: SvcApi.Api;
/** The widget's id, its live chat mode and its colour, for third-party code. */
// eslint-disable-next-line no-var -- as above
declare var svc_config: SvcApi.Config | undefined;
/** Adds the widget to the page again after svc_destroy() (single-page apps); does nothing while it runs. */
declare function svc_init(): void;
/** Removes everything the widget added to the page; svc_api answers failures until svc_init(). */
declare function svc_destroy(): void;

/** Callbacks the page may define on window; each is called when it is a function. */
interface Window {
  svc_onLoadCallback?(): void;
  svc_onOpen?(): void;
  svc_onClose?(): void;
  svc_onMessageSent?(text: string): void;
  svc_onAccept?(agent?: SvcApi.Agent): void;
  svc_onIntroduction?(contact: SvcApi.ContactInfo): void;
  svc_onResizeCallback?(size: { width: number; height: number }): void;
  svc_onCallStart?(): void;
  svc_onCallEnd?(result: SvcApi.Ok | SvcApi.Fail): void;
  svc_onChangeState?(state: SvcApi.WidgetState): void;
  svc_onMessageReceived?(message: SvcApi.ReceivedMessage): void;
  svc_onClientStartChat?(): void;
  svc_onWidgetDestroy?(): void;
}
