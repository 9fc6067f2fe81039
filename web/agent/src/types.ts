/**
 * The shapes the agent/admin API and the stream send (CONTRACT §5), as the
 * server's presenters write them (server/presenters/*). Kept here because the
 * web build cannot import server modules; change both sides together.
 */

export type Role = 'admin' | 'agent';
export type AgentStatus = 'online' | 'away' | 'offline';

export interface Agent {
  id: number;
  name: string;
  email: string;
  role: Role;
  status: AgentStatus;
  phone: string | null;
  photo_url: string | null;
  active: boolean;
  created_at: number;
}

export interface Visitor {
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

export interface Message {
  id: number;
  chat_id: number;
  author: 'visitor' | 'agent' | 'system';
  agent_id?: number;
  type: string;
  text?: string;
  file?: string;
  file_name?: string;
  file_size?: number;
  thumb?: string;
  latitude?: number;
  longitude?: number;
  emoji?: string;
  duration?: number;
  performer?: string;
  title?: string;
  internal?: boolean;
  created_at: number;
  delivery?: Delivery;
}

export interface Chat {
  id: number;
  status: ChatStatus;
  channel_id: number;
  department_id: number | null;
  visitor: Visitor;
  agent_ids: number[];
  accepted_by: number | null;
  custom_data: unknown[];
  contact_info: Record<string, unknown> | null;
  crm_link: string | null;
  enable_assign: boolean;
  page: Record<string, unknown> | null;
  rate: 'positive' | 'negative' | null;
  blacklisted: boolean;
  seq: number;
  created_at: number;
  accepted_at: number | null;
  finished_at: number | null;
  updated_at: number;
  messages?: Message[];
}

export interface Department {
  id: number;
  name: string;
}

export interface ChatApiChannel {
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

export interface WidgetChannel {
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
}

export type Channel = ChatApiChannel | WidgetChannel;

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
  event_webhook_url: string | null;
  safe_url: string | null;
  webhook_secret: string;
  callback: CallbackSettings;
  /** The account's widget invitation rules; null = none. */
  rules?: WidgetRules | null;
  /** Set when event webhooks were paused after failing for more than a day; POST /settings/webhooks/resume clears it. */
  webhooks_paused_reason?: string | null;
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

export interface DeliveryRecord {
  id: number;
  kind: 'chat_channel' | 'event_webhook';
  event_type: string;
  url: string;
  status: 'pending' | 'delivered' | 'failed' | 'paused';
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

export interface OfflineMessage {
  id: number;
  visitor_id?: number | null;
  name?: string | null;
  email?: string | null;
  phone?: string | null;
  description?: string | null;
  message?: string | null;
  channel_id?: number | null;
  created_at?: number;
}

export type CallStatus = 'start' | 'agent_connected' | 'client_connected' | 'end' | 'error';

export interface Call {
  id: number;
  chat_id?: number | null;
  visitor_id?: number | null;
  channel_id?: number | null;
  agent_id?: number | null;
  type?: string;
  /** E.164, e.g. +15550100199. */
  phone: string;
  status: CallStatus | string;
  reason?: string | null;
  record_url?: string | null;
  created_at: number;
  updated_at?: number;
  duration_seconds?: number | null;
}

/** One frame of GET /api/v1/stream. */
export interface StreamFrame {
  type: string;
  data: Record<string, unknown>;
  cursor?: number;
  chat_id?: number;
  seq?: number;
}
