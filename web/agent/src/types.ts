/**
 * The shapes the agent app reads from the API and the stream (/openapi.json).
 * Those the server's presenters build come from protocol/agent.ts, shared
 * with the server; the rest are the app's own views of them.
 */

import type {
  AgentDto,
  AuditEntryDto,
  AgentStreamFrame,
  EventFrame,
  ChannelRefDto,
  ChatChannelDto,
  ChatDto,
  ChatMatchDto,
  ChatOfferDto,
  ChatSearchHitDto,
  DeliveryDto,
  GivenUpEventTypeDto,
  GuideDto,
  MailDto,
  MessageDto,
  NotificationPrefsDto,
  PresenceDto,
  SignInThrottleDto,
  SystemDto,
  BackupRunDto,
  UploadUsageDto,
  FreedUploadsDto,
  VisitorDto,
  WidgetChannelDto,
} from '../../../protocol/agent';

export type Agent = AgentDto;
export type Visitor = VisitorDto;
export type Message = MessageDto;
export type Chat = ChatDto;
export type ChatMatch = ChatMatchDto;
export type ChatOffer = ChatOfferDto;
export type ChatSearchHit = ChatSearchHitDto;
export type ChatChannel = ChatChannelDto;
export type WidgetChannel = WidgetChannelDto;
export type Channel = ChatChannelDto | WidgetChannelDto;
/** A channel as every agent may know it (its id, type and name). */
export type ChannelRef = ChannelRefDto;
export type DeliveryRecord = DeliveryDto;
export type GivenUpEventType = GivenUpEventTypeDto;
export type Mail = MailDto;
export type SignInThrottle = SignInThrottleDto;
export type SystemInfo = SystemDto;
export type AuditEntry = AuditEntryDto;
export type BackupRun = BackupRunDto;
export type UploadUsage = UploadUsageDto;
export type FreedUploads = FreedUploadsDto;
export type NotificationPrefs = NotificationPrefsDto;
export type Presence = PresenceDto;
export type Guide = GuideDto;

export type Role = 'admin' | 'agent';
export type AgentStatus = 'online' | 'away' | 'offline';

export type ChatStatus = 'pending' | 'active' | 'finished';

export interface CustomDataField {
  title?: string;
  content?: string;
  link?: string;
  key?: string;
}

export interface Delivery {
  status: 'pending' | 'delivered' | 'failed';
  error?: string;
}

export interface Department {
  id: number;
  name: string;
}

export type CallbackHours = Partial<Record<'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun', string[][]>>;

export interface CallbackSettings {
  enabled: boolean;
  balance_seconds: number;
  timezone: string;
  hours: CallbackHours | null;
  /** Who places callback calls ("agent_dialled": the agent rings the visitor and reports statuses). */
  provider?: string;
}

/** One widget invitation rule, in the format of docs/WIDGET.md ("Invitation rules"). */
export interface WidgetRule {
  id: string | number;
  conditions: { seconds_on_page?: number; url_contains?: string; url_matches?: string; min_visits?: number };
  action: { type: 'invitation'; text: string; department_id?: number };
}

export interface WidgetRules {
  rules: WidgetRule[];
}

export interface Settings {
  /** The company's name ("" while not set: "Parley" stands in). */
  account_name?: string;
  event_webhook_url: string | null;
  safe_url: string | null;
  webhook_secret: string;
  callback: CallbackSettings;
  /** The account's widget invitation rules; null = none. */
  rules?: WidgetRules | null;
  /** Set when event webhooks were paused after failing for more than a day; POST /settings/webhooks/resume clears it. */
  webhooks_paused_reason?: string | null;
  /** Where notification mails go (empty: every active admin), the missed-chat delay, the archive address. */
  notifications?: NotificationSettings;
  /** Every event type of the event webhooks with whether it is sent (docs/EVENTS.md "Choosing the event types"). */
  event_webhook_types?: Record<string, boolean>;
  /** The status of agents who never chose one, and the idle delay before Away (0 = never). */
  presence?: PresenceSettings;
  /** Chat retention: finished chats older than chats_days are erased (null: kept forever); chats_due: what the next pass removes. */
  retention?: { chats_days: number | null; chats_due: number };
}

export interface PresenceSettings {
  default_status: AgentStatus;
  away_after_idle_minutes: number;
}

export interface NotificationSettings {
  emails: string[];
  missed_chat_minutes: number | null;
  archive_email: string | null;
}

/** A ready-made reply agents insert by typing `/shortcut` in the composer. */
export interface CannedResponse {
  id: number;
  shortcut: string;
  title: string;
  text: string;
  created_at: number;
  updated_at: number;
}

/** Everything GET /api/v1/stream sends: event frames and ready/reset/pong (protocol/agent.ts). */
export type WireFrame = AgentStreamFrame;
/** An event frame of the stream, as the app receives it (stream.ts handles the others). */
export type StreamFrame = EventFrame;

export type { ErasureDto as Erasure } from '../../../protocol/agent';
