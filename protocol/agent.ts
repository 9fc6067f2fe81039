/**
 * The shapes the agent/admin API and the agent stream send (/openapi.json): the
 * server's presenters build them, the agent app (web/agent) reads them. Types
 * and constants only, so the web build can import them; change them here for both sides.
 */
import type { TimeRange, Weekday, WorkingHoursDto } from './routing.js';
import type { WidgetAppearance } from './widget.js';

/** The languages the agent app speaks (the widget's nine); `language` of GET/PATCH /api/v1/me is one of them or null. */
export const AGENT_LANGUAGES = ['en', 'ru', 'es', 'de', 'fr', 'pt', 'tr', 'uk', 'ar'] as const;
export type AgentLanguage = (typeof AGENT_LANGUAGES)[number];

export interface AgentDto {
  id: number;
  name: string;
  email: string;
  role: 'admin' | 'agent';
  status: 'online' | 'away' | 'offline';
  phone: string | null;
  photo_url: string | null;
  active: boolean;
  created_at: number;
  /** The agent app's language the agent chose (a BCP 47 tag of AGENT_LANGUAGES), or null: the app follows the browser's languages. */
  language: string | null;
  /** The departments the agent belongs to (ids, ascending): in the answers of /api/v1/agents and its agent.updated events. */
  department_ids?: number[];
}

/** An agent's own alert preferences (GET/PUT /api/v1/me/notifications). */
export interface NotificationPrefsDto {
  /** A chime plays for the events chosen below. */
  sound: boolean;
  /** Its volume, 0 to 100. */
  volume: number;
  /** Desktop notifications (once the browser allows them) when the app is not in front. */
  desktop: boolean;
  /** Silences every alert; the other choices are kept. */
  muted: boolean;
  /** Which events alert: a new chat waiting (until someone accepts it), a visitor's message in my chats, a chat transferred to me. */
  events: { new_chat: boolean; new_message: boolean; transfer: boolean };
}

/** The signed-in agent's presence (GET/PUT /api/v1/me/presence). */
export interface PresenceDto {
  agent: AgentDto;
  /** The status the agent gets back when it opens the app or returns from idle: its last choice, or the account's default. */
  chosen_status: 'online' | 'away' | 'offline';
  /** Minutes without activity in the app before an online agent turns Away; 0 = never. */
  away_after_idle_minutes: number;
}

/** The first-run guide (GET /api/v1/me/guide): each step derived from the account's state. */
export interface GuideDto {
  steps: Array<{ id: 'channel' | 'snippet' | 'online'; done: boolean }>;
  done: boolean;
  dismissed: boolean;
  /** Whether the app shows it: an admin who has not finished nor dismissed it. */
  show: boolean;
}

export interface MessageDto {
  id: number;
  chat_id: number;
  author: 'visitor' | 'agent' | 'system';
  agent_id?: number;
  type: string;
  text?: string;
  file?: string;
  file_name?: string;
  file_size?: number;
  /** The file was freed by an administrator (DELETE …/uploads): the message stays, its file answers 404. */
  file_removed?: true;
  thumb?: string;
  latitude?: number;
  longitude?: number;
  emoji?: string;
  duration?: number;
  width?: number;
  height?: number;
  performer?: string;
  title?: string;
  /** Private note: never sent to the visitor. */
  internal?: boolean;
  created_at: number;
  delivery?: { status: 'pending' | 'delivered' | 'failed'; error?: string };
}

export interface VisitorDto {
  id: number;
  number: number;
  name: string | null;
  email: string | null;
  phone: string | null;
  photo: string | null;
  url: string | null;
  invite: string | null;
  description: string | null;
  chats_count: number;
  blacklisted: boolean;
  session: Record<string, unknown>;
}

export interface ChatDto {
  id: number;
  status: 'pending' | 'active' | 'finished';
  channel_id: number;
  department_id: number | null;
  visitor: VisitorDto;
  agent_ids: number[];
  accepted_by: number | null;
  /** Every custom-data field: the page's (page_custom_data), then the chat_accepted answer's (crm_custom_data). */
  custom_data: unknown[];
  /** What the page set with svc_api.setCustomData. */
  page_custom_data: unknown[];
  /** custom_data of the chat_accepted answer (the receiver's CRM). */
  crm_custom_data: unknown[];
  /** contact_info of the chat_accepted answer: name, phone, email, description. */
  contact_info: Record<string, unknown> | null;
  crm_link: string | null;
  enable_assign: boolean;
  /** The page the chat started on. */
  page: Record<string, unknown> | null;
  /** page of the chat_accepted answer: the CRM's page ({url, title?}), never the visitor's. */
  crm_page: Record<string, unknown> | null;
  rate: 'positive' | 'negative' | null;
  blacklisted: boolean;
  seq: number;
  created_at: number;
  accepted_at: number | null;
  finished_at: number | null;
  updated_at: number;
  messages?: MessageDto[];
  /** Rows of chat lists only: the last message agents see (private notes aside); null when there is none. */
  last_message?: MessageDto | null;
  /** Rows of chat lists only: the chat's channel, by name. */
  channel?: ChannelRefDto;
  /** Rows of chat lists only: the visitor's messages the signed-in agent has not read (POST /api/v1/chats/:id/read). */
  unread_count?: number;
  /**
   * The agent a waiting chat is offered to now and until when (assignment
   * modes, docs/ROUTING.md); null when it is offered to nobody (manual mode,
   * nobody eligible right now, or the chat no longer waits). In the API's
   * answers (lists, GET /api/v1/chats/:id and the answers built like it);
   * absent from the chats inside stream frames: `chat.offered` frames say each move.
   */
  offer?: ChatOfferDto | null;
}

/** Who a waiting chat is offered to and until when (ChatDto.offer). */
export interface ChatOfferDto {
  /** The agent whose turn it is; anyone eligible may still accept the chat. */
  agent_id: number;
  /** The routing step, as in chat.offered: 1 for the chat's first, +1 at each later one. */
  attempt: number;
  /** When the offer runs out (epoch ms); a time already past means it is being moved on right now. */
  expires_at: number;
}

/**
 * Why a chat matched a search (GET /api/v1/chats/search): the field, and a
 * short excerpt of it cut into plain-text parts, `hit` on the parts that
 * match. The parts are text, never markup: the app renders each as text.
 */
export interface ChatMatchDto {
  field: 'message' | 'name' | 'email' | 'phone';
  /** The matching message (field "message"). */
  message_id?: number;
  created_at?: number;
  parts: Array<{ text: string; hit: boolean }>;
}

/** A row of GET /api/v1/chats/search: a chat list row and its match (none when only filters were given). */
export interface ChatSearchHitDto extends ChatDto {
  match: ChatMatchDto | null;
}

export interface ChatChannelDto {
  id: number;
  type: 'chat_api';
  name: string;
  public_id: string;
  endpoint_url: string;
  status_url: string;
  webhook_url: string | null;
  chunked: boolean;
  agent_ids: number[];
}

export interface WidgetChannelDto {
  id: number;
  type: 'widget';
  name: string;
  widget_id: string;
  script_url: string;
  install_snippet: string;
  agent_ids: number[];
  color: string | null;
  allowed_domains: string[];
  /** Hex key of the HMAC-SHA256 signature setUserToken must carry; null = identity verification off. */
  identity_secret: string | null;
  /** The default launcher is hidden: the page opens the chat from its own button (svc_api.open()). */
  hide_launcher: boolean;
  /** false: the widget is off; pages including it show nothing and get svc_onWidgetDestroy. */
  enabled: boolean;
  /** Texts, launcher place and style, logo, language (docs/WIDGET.md "Appearance and language"). */
  appearance: WidgetAppearance;
}

export type ChannelDto = ChatChannelDto | WidgetChannelDto;

/** A channel as any agent may know it: a chat list row's channel, and GET /api/v1/me/channels (the channels the agent sees). */
export interface ChannelRefDto {
  id: number;
  type: 'chat_api' | 'widget';
  name: string;
}

export interface DeliveryDto {
  id: number;
  kind: 'chat_channel' | 'event_webhook' | 'mail' | 'web_push';
  event_type: string;
  url: string;
  /** `cancelled`: an event webhook whose type an admin switched off before it was sent. */
  status: 'pending' | 'delivered' | 'failed' | 'paused' | 'kept' | 'cancelled';
  attempts: number;
  last_status_code: number | null;
  last_response: string | null;
  last_error: string | null;
  webhook_id: string;
  chat_id: number | null;
  message_id: number | null;
  created_at: number;
  updated_at: number;
  delivered_at: number | null;
  next_attempt_at: number | null;
}

/**
 * An event type Parley gave up sending (GET /api/v1/settings/webhooks/given-up, admins): its delivery
 * failed the whole retry schedule while the receiver answered other event types.
 */
export interface GivenUpEventTypeDto {
  event_type: string;
  /** The event webhook URL it failed at. */
  url: string;
  given_up_at: number;
  /** The receiver's last answer: HTTP status (null when none came), the start of its body, the error recorded. */
  status_code: number | null;
  response: string | null;
  error: string | null;
  /** Events of this type not sent since. */
  skipped: number;
  /** The delivery that failed (in the delivery log while it is kept). */
  delivery_id: number | null;
}

/** What Admin → System shows (GET /api/v1/system, admins): how this instance sees its clients' addresses. */
export interface SystemDto {
  /** TRUST_PROXY as configured: the proxies whose X-Forwarded-For is believed (empty: none). */
  trust_proxy: string[];
  /**
   * Addresses that sent X-Forwarded-For without being listed in TRUST_PROXY, seen by the instance that answers
   * since it started (at most 100): every client behind such a proxy shares its address and its sign-in limits.
   */
  untrusted_proxies: Array<{ address: string; first_seen_at: number; last_seen_at: number; requests: number }>;
  /** Scheduled backups (BACKUP_DIR, docs/DATA.md): the last one, the last failure before it, and the next. */
  backups: {
    /** BACKUP_DIR is set. */
    enabled: boolean;
    dir: string | null;
    interval_hours: number;
    keep: number;
    last: BackupRunDto | null;
    /** The most recent failed backup when the last one succeeded after it; null otherwise. */
    last_failed: BackupRunDto | null;
    /** When the next one falls due (ms); null when disabled. */
    next_at: number | null;
  };
}

/** One scheduled backup. */
export interface BackupRunDto {
  started_at: number;
  finished_at: number | null;
  status: 'running' | 'ok' | 'failed';
  /** The archive's path on the server. */
  file: string | null;
  size_bytes: number | null;
  chats: number | null;
  messages: number | null;
  /** Why it failed (status failed). */
  error: string | null;
}

/** Sign-in throttling of an (address, e-mail) pair or of a source address (GET /api/v1/auth/throttles, admins). */
export interface SignInThrottleDto {
  id: number;
  kind: 'pair' | 'source';
  address: string;
  /** The e-mail a pair names; null for a source. */
  email: string | null;
  failures: number;
  first_failure_at: number;
  last_failure_at: number;
  /** Sign-ins of this key are refused until then; null when it does not wait now. */
  blocked_until: number | null;
  /** When its failures are forgotten (a day after the last one, or the end of its wait). */
  expires_at: number;
}

/** A mail as admins read it on the Mail page (GET /api/v1/mails): composed, sent, or kept when no SMTP server is set. */
export interface MailDto {
  id: number;
  /** What the mail is: offline_message, callback_request, invitation, password_reset … */
  type: string;
  to: string;
  reply_to: string | null;
  subject: string;
  text: string;
  html: string;
  /** kept: composed while no SMTP_URL is set (never sent); pending: to be sent or retried; delivered; failed (given up, see last_error). */
  status: 'pending' | 'delivered' | 'failed' | 'kept';
  attempts: number;
  last_error: string | null;
  chat_id: number | null;
  created_at: number;
  delivered_at: number | null;
  next_attempt_at: number | null;
}

/** A call as agents see it (GET /api/v1/calls, the call.updated frame): `reason` only when it failed, `record_url` only once it ended. */
export interface CallDto {
  id: number;
  chat_id: number | null;
  visitor_id: number | null;
  channel_id: number | null;
  agent_id: number | null;
  type: 'callback' | 'incoming' | 'outgoing';
  /** E.164, e.g. +15550100199. */
  phone: string;
  status: 'start' | 'agent_connected' | 'client_connected' | 'end' | 'error';
  reason?: string;
  record_url?: string;
  created_at: number;
  updated_at: number;
  /** First time an agent or the visitor was connected; null before. */
  connected_at: number | null;
  ended_at: number | null;
  /** Seconds from connected_at to the end (0 if never connected); null while active. */
  duration_seconds: number | null;
}

/** An offline message as agents see it (GET /api/v1/offline-messages, the offline_message.created and .updated frames). */
export interface OfflineMessageDto {
  id: number;
  channel_id: number;
  visitor_id: number | null;
  name: string | null;
  email: string | null;
  phone: string | null;
  description: string | null;
  message: string;
  created_at: number;
  /** When an agent marked it handled (PATCH /api/v1/offline-messages/:id), epoch ms; null while not handled. */
  handled_at: number | null;
  /** The agent who marked it handled; null while not handled. */
  handled_by: number | null;
}

/** A department as the admin API shows it (GET /api/v1/departments). */
export interface DepartmentDto {
  id: number;
  name: string;
}

/** A ready-made reply agents insert by typing `/shortcut` in the composer (GET /api/v1/canned-responses). */
export interface CannedResponseDto {
  id: number;
  shortcut: string;
  title: string;
  text: string;
  created_at: number;
  updated_at: number;
}

/** Callback requests: whether visitors may ask, the call time left, when calls are taken. */
export interface CallbackSettingsDto {
  enabled: boolean;
  balance_seconds: number;
  timezone: string;
  /** mon..sun → list of ["HH:MM","HH:MM"]; null = always open. */
  hours: Partial<Record<Weekday, TimeRange[]>> | null;
  /** Who places callback calls ("agent_dialled": the agent rings the visitor and reports statuses). */
  provider: string;
}

/** One widget invitation rule, in the format of docs/WIDGET.md ("Invitation rules"). */
export interface WidgetRuleDto {
  id: string | number;
  conditions: { seconds_on_page?: number; url_contains?: string; url_matches?: string; min_visits?: number };
  action: { type: 'invitation'; text: string; department_id?: number };
}

export interface WidgetRulesDto {
  rules: WidgetRuleDto[];
}

/** Where notification mails go (empty: every active admin), the missed-chat delay, the archive address. */
export interface NotificationSettingsDto {
  emails: string[];
  missed_chat_minutes: number | null;
  archive_email: string | null;
}

/** The status of agents who never chose one, and the idle delay before Away (0 = never). */
export interface PresenceSettingsDto {
  default_status: AgentDto['status'];
  away_after_idle_minutes: number;
}

/** Chat retention: finished chats older than chats_days are erased (null: kept forever); chats_due: what the next pass removes. */
export interface RetentionSettingsDto {
  chats_days: number | null;
  chats_due: number;
}

/** Account settings as the admin API shows them (GET/PUT /api/v1/settings). */
export interface SettingsDto {
  /** The company's name as the admin set it ("" while not set: mails and screens say "Parley"). */
  account_name: string;
  event_webhook_url: string | null;
  safe_url: string | null;
  /** Shown to admins: receivers need it to verify signatures. */
  webhook_secret: string;
  callback: CallbackSettingsDto;
  /** Widget invitation rules (docs/WIDGET.md), or null when the account has none. */
  rules: WidgetRulesDto | null;
  /** Set when event webhooks are paused after failing for more than a day (read-only); POST /settings/webhooks/resume clears it. */
  webhooks_paused_reason: string | null;
  notifications: NotificationSettingsDto;
  presence: PresenceSettingsDto;
  /** Working hours for chat (docs/ROUTING.md); null = always open. */
  chat_hours: WorkingHoursDto | null;
  /** Every event type of the event webhooks with whether it is sent (docs/EVENTS.md "Choosing the event types"). */
  event_webhook_types: Record<string, boolean>;
  retention: RetentionSettingsDto;
}

/* The agent stream (GET /api/v1/stream). The server's event catalogue
 * (server/events/catalogue.ts) documents every field of these payloads. */

/** What changed in a chat.updated event. */
export type ChatChange =
  'accepted' | 'visitor_updated' | 'assigned' | 'finished' | 'answer_applied' | 'transferred' | 'custom_data' | 'rated' | 'page_changed' | 'missed';

/** chat.created / chat.updated: the chat as agents see it, what changed, and who changed it (when an agent did). */
export interface ChatEventData {
  chat: ChatDto;
  change?: ChatChange;
  agent_id?: number;
}

/** typing: who types in which chat; agent_id when an agent does. */
export interface TypingEventData {
  chat_id: number;
  author: 'visitor' | 'agent';
  agent_id?: number;
  typing: boolean;
}

/** Each event name and its payload (the `data` of the outbox row and of the agent's frame). */
export interface EventPayloads {
  'chat.created': ChatEventData;
  'chat.updated': ChatEventData;
  'message.created': { message: MessageDto };
  'message.updated': { message: MessageDto };
  typing: TypingEventData;
  'offline_message.created': { offline_message: OfflineMessageDto };
  'offline_message.updated': { offline_message: OfflineMessageDto };
  'call.updated': { call: CallDto; visitor_id: number | null };
  'agent.updated': { agent: AgentDto };
  'working_hours.changed': WorkingHoursChangedData;
  'chat.offered': ChatOfferedData;
  'chat.read': ChatReadData;
  'channel.changed': ChannelChangedData;
  'visitor.erased': VisitorErasedData;
}

/** A visitor's erasure ended (DELETE /api/v1/visitors/:id): everything about the visitor is gone. */
export interface VisitorErasedData {
  erasure_id: number;
  visitor_id: number;
  visitor_number: number;
  channel_id: number | null;
  /** The user token the site had given the widget visitor; null when none. */
  user_token: string | null;
  /** The chat channel's sender.id of the visitor; null for a widget visitor. */
  sender_id: string | null;
  /** Whether sender.id arrived as a JSON number. */
  sender_id_is_number: boolean;
}

/** Working hours for chat opened or closed (at the boundary, or an admin changed them): docs/ROUTING.md. */
export interface WorkingHoursChangedData {
  /** null: the account's hours; else the department's. */
  department_id: number | null;
  open: boolean;
  /** When `open` changes next (epoch ms); null = not within the horizon (always open, or no range ahead). */
  changes_at: number | null;
}

/** A waiting chat was offered to an agent (assignment modes, docs/ROUTING.md): the first offer (attempt 1) or a re-offer. */
export interface ChatOfferedData {
  chat_id: number;
  /** The agent it is offered to. */
  agent_id: number;
  /** 1 for the chat's first routing step, +1 at each later one. */
  attempt: number;
  /** When the offer runs out (epoch ms) and goes to the next agent unless accepted. */
  expires_at: number;
  /** The department whose agents it is offered to first; null once it is offered to everyone. */
  department_id: number | null;
  mode: 'round_robin' | 'least_busy';
  /** The agent it was offered to before (the offer ran out or was declined); null for the first. */
  previous_agent_id: number | null;
}

/**
 * An agent read a chat (POST /api/v1/chats/:id/read moved its chat_reads row
 * forward): sent to that agent's own streams only, so its other devices clear
 * the chat's unread count live. Not an event webhook.
 */
export interface ChatReadData {
  chat_id: number;
  /** The agent who read it (the only one whose stream gets the frame). */
  agent_id: number;
  /** The last message the agent has seen now. */
  last_read_message_id: number;
  /** The visitor's messages after it, as the chat lists count them (usually 0). */
  unread_count: number;
}

/**
 * An administrator created, changed or deleted a channel (its agents among
 * other things): every open stream reads its channel rule again before its
 * next event, so the chats it shows follow the change at once. Sent to the
 * agents who see the channel after the change or saw it before (administrators
 * always): reload the lists (GET /api/v1/me/channels, the chats). Not an event webhook.
 */
export interface ChannelChangedData {
  channel_id: number;
  change: 'created' | 'updated' | 'deleted';
}

export type EventType = keyof EventPayloads;

/** A frame of an event: its name and payload as recorded, and where it sits (cursor = event id, its chat and the chat's seq). */
export type EventFrame = {
  [K in EventType]: { type: K; data: EventPayloads[K]; cursor?: number; chat_id?: number; seq?: number };
}[EventType];

/**
 * The frames that are not events: `ready` (live from `cursor` on), `reset` (nothing replayed: the cursor expired,
 * or it is more than 1,000 events behind; reload the lists), `pong` (heartbeat).
 */
export type ControlFrame =
  | { type: 'ready'; data: { cursor: number } }
  | { type: 'reset'; data: { reason: 'cursor_expired' | 'too_far_behind' } }
  | { type: 'pong'; data: Record<string, never> };

/** Everything the agent stream sends. Clients ignore a `type` they do not know (the server may add kinds). */
export type AgentStreamFrame = EventFrame | ControlFrame;

/** What uploaded files take (GET /api/v1/uploads/usage, administrators): the quotas, the account's use, by channel and the top visitors. */
export interface UploadUsageDto {
  /** The limits in bytes: UPLOAD_QUOTA_MB, UPLOAD_QUOTA_CHANNEL_MB, UPLOAD_QUOTA_VISITOR_MB. */
  quota: { account_bytes: number; channel_bytes: number; visitor_bytes: number };
  used: { bytes: number; files: number };
  /** Channels with files, most bytes first; channel_id null: agents' photos. */
  channels: Array<{ channel_id: number | null; name: string | null; bytes: number; files: number }>;
  /** The visitors whose uploads take the most, at most 10, most bytes first. */
  top_visitors: Array<{ visitor_id: number; number: number; name: string | null; channel_id: number; bytes: number; files: number }>;
}

/** What freeing files took away (DELETE /api/v1/chats/:id/uploads, DELETE /api/v1/visitors/:id/uploads). */
export interface FreedUploadsDto {
  files: number;
  bytes: number;
}

/** An audit-log row (GET /api/v1/audit). */
export interface AuditEntryDto {
  id: number;
  at: number;
  /** Who: null for the server's command line or a signed-out person (a forgotten password). */
  agent: { id: number; name: string | null } | null;
  action: string;
  target: { type: string; id: string } | null;
  address: string | null;
}

/** A visitor's erasure (DELETE /api/v1/visitors/:id answers it with 202; GET /api/v1/erasures/:id shows its progress). */
export interface ErasureDto {
  id: number;
  visitor_id: number;
  visitor_number: number;
  /** `running` until everything about the visitor is gone, then `done`. */
  status: 'running' | 'done';
  chats_total: number;
  chats_erased: number;
  messages_total: number;
  messages_erased: number;
  files_erased: number;
  created_at: number;
  finished_at: number | null;
}
