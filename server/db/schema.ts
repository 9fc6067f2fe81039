/**
 * Row types of every table, as Kysely sees them. Conventions, the same on
 * SQLite and PostgreSQL:
 * - ids are integers; timestamps are epoch milliseconds (integer / bigint);
 * - booleans are 0/1 integers (SQLite has no boolean type);
 * - structured values are JSON text (columns named *_json).
 * Every table but accounts carries account_id: every query is scoped by it.
 */
import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

export type Bool = 0 | 1;

export interface AccountsTable {
  id: Generated<number>;
  name: string;
  next_visitor_number: number;
  created_at: number;
}

/** agents.password_state: chosen by the person, printed once by reset-admin (unused, or used for its one sign-in), or generated at the first start (printed in the log; signs in until the first-run page replaces it). */
export type PasswordState = 'chosen' | 'one_time' | 'one_time_used' | 'generated';

export interface AgentsTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  email: string;
  password_hash: string;
  /** What kind of password password_hash is (migration 026): `one_time*` ones must be changed before anything else. */
  password_state: Generated<PasswordState>;
  role: 'admin' | 'agent';
  phone: string | null;
  photo_url: string | null;
  status: 'online' | 'away' | 'offline';
  active: Bool;
  created_at: number;
  updated_at: number;
  /** The status the agent last chose (PUT /me/status); null = never chose, the account's default applies (migration 029). */
  chosen_status: 'online' | 'away' | 'offline' | null;
  /** The agent's alert preferences (JSON, domain/agents/notificationPrefs.ts); null = the defaults (migration 029). */
  notification_prefs_json: string | null;
  /** When the agent dismissed the first-run guide; null = not dismissed (migration 029). */
  guide_dismissed_at: number | null;
  /** Chats (active, plus outstanding offers) the agent may hold at once; null = no limit (migration 031). */
  max_chats: number | null;
  /** When the agent was last offered a chat: round robin offers the least recent first (migration 031). */
  last_offered_at: number | null;
  /** The agent app's language (protocol/agent.ts AGENT_LANGUAGES); null = the browser's (migration 062). */
  language: string | null;
}

export interface AuthTokensTable {
  id: Generated<number>;
  account_id: number;
  agent_id: number;
  token_hash: string;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
}

/** Sign-in throttling of one key, an (address, e-mail) pair or a source address (migration 008, domain/auth/throttles.ts). */
export interface SignInThrottlesTable {
  id: Generated<number>;
  /** `pair:<address> <email>` or `source:<address>`. */
  key: string;
  /** email and known: behind a shared proxy only (domain/auth/throttles.ts). */
  kind: 'pair' | 'source' | 'email' | 'known';
  address: string;
  /** The e-mail of a pair (lower-cased); null for a source. */
  email: string | null;
  /** The account of the agent a pair names; null for an unknown e-mail and for a source. */
  account_id: number | null;
  failures: number;
  first_failure_at: number;
  last_failure_at: number;
  /** Sign-ins of this key are refused (429) until then. */
  blocked_until: number;
  /** The delay is over and the failures forgotten: the row means nothing (retention deletes it). */
  expires_at: number;
}

export interface DepartmentsTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  created_at: number;
  /** The department's own working hours for chat (JSON, domain/workingHours/hours.ts); null = the account's (migration 024). */
  hours_json: string | null;
  /** The department's assignment mode (domain/routing/modes.ts); null = the account's (migration 031). */
  routing_mode: string | null;
  /** The name in the widget's languages, JSON {"de": "Vertrieb"}; null = `name` everywhere (migration 032). */
  names_json: string | null;
}

/** A ready-made reply agents insert with `/shortcut`; the shortcut is unique per account. */
export interface CannedResponsesTable {
  id: Generated<number>;
  account_id: number;
  shortcut: string;
  title: string;
  text: string;
  created_at: number;
  updated_at: number;
}

export interface ChannelsTable {
  id: Generated<number>;
  account_id: number;
  type: 'chat_api' | 'widget';
  name: string;
  /** chat_api: CHANNEL_PUBLIC_ID; widget: widget_id. Unique across the service. */
  public_id: string;
  /** chat_api: the random path string of the endpoint; widget: null. */
  secret: string | null;
  webhook_url: string | null;
  chunked: Bool;
  /** Widget options (colour, allowed domains, identity secret, ...). */
  options_json: string;
  /** Widget appearance and language (migration 011; domain/channels/appearance.ts). */
  appearance_json: Generated<string>;
  created_at: number;
  updated_at: number;
}

/** An agent's membership of a department (migration 022), many to many. */
export interface AgentDepartmentsTable {
  account_id: number;
  agent_id: number;
  department_id: number;
}

export interface ChannelAgentsTable {
  account_id: number;
  channel_id: number;
  agent_id: number;
}

export interface SettingsTable {
  account_id: number;
  event_webhook_url: string | null;
  safe_url: string | null;
  webhook_secret: string;
  callback_json: string;
  rules_json: string | null;
  webhooks_paused_reason: string | null;
  updated_at: number;
  /** JSON array of addresses for notification mails; null = the account's admins (migration 012). */
  notification_emails_json: string | null;
  /** Minutes a chat may wait unaccepted before the missed-chat mail; null = never (migration 012). */
  missed_chat_minutes: number | null;
  /** Where every finished chat's transcript is mailed; null = nowhere (migration 012). */
  archive_email: string | null;
  /** Working hours for chat (JSON, domain/workingHours/hours.ts); null = always open (migration 024). */
  chat_hours_json: string | null;
  /** Event types the admin switched on or off (`{"call_event": false}`); null = the defaults (migration 018, eventWebhooks/eventTypes.ts). */
  event_webhook_types_json: string | null;
  /** Status of agents who never chose one; null = online (migration 029, domain/agents/presenceSettings.ts). */
  default_agent_status: 'online' | 'away' | 'offline' | null;
  /** Minutes without activity in the app before an online agent turns Away; null or 0 = never (migration 029). */
  away_after_idle_minutes: number | null;
  /** Finished chats older than this many days are erased (retention/pruneChats.ts); null = kept forever (migration 056). */
  retention_chats_days: number | null;
}

export interface VisitorsTable {
  id: Generated<number>;
  account_id: number;
  channel_id: number;
  /** sender.id of the chat channel, or the widget's visitor id. */
  external_id: string;
  /** Whether sender.id arrived as a JSON number, so it is returned unchanged. */
  external_id_is_number: Bool;
  number: number;
  name: string | null;
  email: string | null;
  phone: string | null;
  photo: string | null;
  url: string | null;
  invite: string | null;
  description: string | null;
  user_token: string | null;
  blacklisted: Bool;
  /** sha256 of the widget visitor's secret token; null for chat-channel visitors. */
  token_hash: string | null;
  session_json: string;
  /**
   * What the widget visitor itself gave (contacts form), `{name?, email?, phone?, description?}` (migration 020);
   * the name/email/phone columns may hold a chat_accepted answer's contact_info, never shown to the visitor.
   */
  widget_contact_json: string | null;
  /** The e-mail address the widget visitor proved it owns (confirmation link) or the page signed; null = none (migration 045). */
  transcript_email: string | null;
  /**
   * 1 once this chat-channel sender sent one message.id with two different contents (migration 050): its ids
   * are no identifiers, and are never used to drop a message as a retry (domain/chatChannel/dedupInbound.ts).
   */
  inbound_ids_reused: Generated<Bool>;
  chats_count: number;
  created_at: number;
  updated_at: number;
}

export interface ChatsTable {
  id: Generated<number>;
  account_id: number;
  channel_id: number;
  visitor_id: number;
  department_id: number | null;
  status: 'pending' | 'active' | 'finished';
  accepted_by: number | null;
  agent_ids_json: string;
  custom_data_json: string;
  contact_info_json: string | null;
  crm_link: string | null;
  enable_assign: Bool;
  page_json: string | null;
  rate: 'positive' | 'negative' | null;
  blacklisted: Bool;
  /** Last per-chat sequence number handed to an event of this chat. */
  last_seq: number;
  created_at: number;
  accepted_at: number | null;
  /** When the chat was missed (domain/chats/missedChat.ts; migrations 012, 052); null = not (yet). */
  missed_at: number | null;
  finished_at: number | null;
  updated_at: number;
  /** When an agent first wrote to the visitor, private notes aside (migration 015). */
  first_response_at: number | null;
  /** custom_data of the chat_accepted answer, apart from the page's own (custom_data_json) (migration 018). */
  crm_custom_data_json: string | null;
  /** page of the chat_accepted answer: the CRM's page, never the visitor's (page_json) (migration 018). */
  crm_page_json: string | null;
}

export interface MessagesTable {
  id: Generated<number>;
  account_id: number;
  chat_id: number;
  author: 'visitor' | 'agent' | 'system';
  agent_id: number | null;
  type: string;
  text: string | null;
  file: string | null;
  file_name: string | null;
  file_size: number | null;
  thumb: string | null;
  latitude: number | null;
  longitude: number | null;
  /** Other multimedia fields of the spec: emoji, duration, width, height, performer, title. */
  extra_json: string | null;
  /** message.id sent by the customer system. */
  external_id: string | null;
  /** Private note: shown to agents, never sent to the visitor. */
  internal: Bool;
  /** Stored but never shown to agents (a blacklisted visitor's later messages). */
  suppressed: Bool;
  delivery_status: 'pending' | 'delivered' | 'failed' | null;
  delivery_error: string | null;
  /** When an administrator freed the message's file (migration 047): the file is gone, the message stays. */
  file_removed_at: number | null;
  created_at: number;
}

export interface InboundDedupTable {
  account_id: number;
  channel_id: number;
  sender_id: string;
  message_external_id: string;
  /** The content last seen with this message.id, hashed (domain/chatChannel/dedupInbound.ts): other content is another message. */
  content_hash: string;
  /** The message stored for it; a repeat is a retry only while this message's chat is open. */
  message_id: number | null;
  /** 1 when the last sighting's content differed from the one before (migration 050). */
  reused: Generated<Bool>;
  created_at: number;
}

/** The transactional outbox and the realtime replay log. */
export interface EventsTable {
  id: Generated<number>;
  account_id: number;
  type: string;
  chat_id: number | null;
  channel_id: number | null;
  seq: number | null;
  data_json: string;
  created_at: number;
}

/** One row (id 1): the newest event id relayed. Relayed events are always a prefix of the table (events/relayClaim.ts). */
/** The deployment's random id, one row (migration 044): names its Redis keys (realtime/namespace.ts). */
export interface DeploymentTable {
  id: number;
  deployment_id: string;
  created_at: number;
}

export interface RelayCursorTable {
  id: number;
  relayed_through: number;
}

/** Per account, the newest event id the retention worker deleted (a cursor below it missed events). */
export interface EventRetentionTable {
  account_id: number;
  deleted_through: number;
}

export interface DeliveriesTable {
  id: Generated<number>;
  account_id: number;
  kind: 'chat_channel' | 'event_webhook' | 'mail' | 'web_push';
  event_type: string;
  event_id: number | null;
  chat_id: number | null;
  message_id: number | null;
  url: string;
  body: string;
  webhook_id: string;
  chunked: Bool;
  /**
   * `kept`: a mail composed while no SMTP_URL is set; shown on the Mail page, never sent.
   * `cancelled`: an event webhook whose type the admin switched off before it was sent.
   */
  status: 'pending' | 'delivered' | 'failed' | 'paused' | 'kept' | 'cancelled';
  attempts: number;
  max_attempts: number;
  next_attempt_at: number;
  deadline_at: number | null;
  locked_until: number | null;
  last_status_code: number | null;
  last_response: string | null;
  last_error: string | null;
  created_at: number;
  updated_at: number;
  delivered_at: number | null;
  /** The visitor a delivery is about when it is about no chat (offline messages, calls; migration 054): erasure finds it. */
  visitor_id: number | null;
}

/** An event type given up on for an account (migration 017, eventWebhooks/giveUp.ts). */
export interface EventWebhookGivenUpTable {
  account_id: number;
  event_type: string;
  url: string;
  delivery_id: number | null;
  status_code: number | null;
  response: string | null;
  error: string | null;
  skipped: number;
  given_up_at: number;
}

export interface OfflineMessagesTable {
  id: Generated<number>;
  account_id: number;
  channel_id: number;
  visitor_id: number | null;
  name: string | null;
  email: string | null;
  phone: string | null;
  description: string | null;
  message: string;
  created_at: number;
  /** When an agent marked it handled (migration 061); null while not handled. */
  handled_at: number | null;
  /** Who marked it handled; null while not handled (or once that agent is deleted). */
  handled_by: number | null;
}

export interface CallsTable {
  id: Generated<number>;
  account_id: number;
  channel_id: number | null;
  chat_id: number | null;
  visitor_id: number | null;
  agent_id: number | null;
  type: 'callback' | 'incoming' | 'outgoing';
  phone: string;
  status: 'start' | 'agent_connected' | 'client_connected' | 'end' | 'error';
  reason: string | null;
  record_url: string | null;
  created_at: number;
  updated_at: number;
  ended_at: number | null;
  /** First agent_connected / client_connected (migration 002). */
  connected_at: number | null;
  /** Seconds from connected_at to the end; set when the call finishes (migration 002). */
  duration_seconds: number | null;
  /** The CallProvider that placed the call, e.g. "agent_dialled" (migration 002). */
  provider: string | null;
}

/** A single-use link to set one's own password (migration 012); only the token's sha256 is stored. */
export interface PasswordLinksTable {
  id: Generated<number>;
  account_id: number;
  agent_id: number;
  kind: 'invite' | 'reset';
  token_hash: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  /** sha256 of the agent's password_hash when the link was made (migration 046): the link opens only while it still matches. */
  password_sha: string | null;
}

/** An agent's own change of e-mail waiting for its link to be opened (migration 058): only the token's sha256 is stored. */
export interface EmailChangesTable {
  id: Generated<number>;
  account_id: number;
  agent_id: number;
  new_email: string;
  token_hash: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/** Every change of an agent's status (migration 015): time Online and Away in reports. */
export interface AgentStatusChangesTable {
  id: Generated<number>;
  account_id: number;
  agent_id: number;
  status: 'online' | 'away' | 'offline';
  at: number;
  /** When the agent's next change came; null while this is its latest (migration 026_status_ends). */
  ended_at: number | null;
}

/** The dimensions of a rollup row: UTC hour in which the chat started, channel, department (0: none), agent who accepted it (0: none). */
export interface ReportKey {
  account_id: number;
  hour: number;
  channel_id: number;
  department_id: number;
  agent_id: number;
}

/** Sums of the chats of one key (migration 015; domain/reports/chatContribution.ts). */
export interface ReportMeasures {
  started: number;
  accepted: number;
  finished: number;
  missed: number;
  frt_count: number;
  frt_sum_ms: number;
  dur_count: number;
  dur_sum_ms: number;
  handled_ms: number;
  positive: number;
  negative: number;
}

export type ReportHourlyTable = ReportKey & ReportMeasures;

/** Chats per bin of domain/reports/bins.ts, per key and metric (frt: first response, dur: duration). */
export interface ReportHistTable extends ReportKey {
  metric: 'frt' | 'dur';
  bin: number;
  count: number;
}

/** Histogram bins as columns of a daily row (migration 023): frt_0 … frt_27, dur_0 … dur_27. */
export type ReportBinColumns = { [K in `${'frt' | 'dur'}_${number}`]: number };

/** Per account × local day (days since 1970-01-01 of report_daily_zones.timezone) × channel × department × agent (migration 023). */
export type ReportDailyTable = Omit<ReportKey, 'hour'> & { day: number } & ReportMeasures & ReportBinColumns;

/** The zone of an account's daily rollup, and how far it is built (null: every hour). */
export interface ReportDailyZonesTable {
  account_id: number;
  timezone: string;
  built_through: number | null;
}

/** What one chat last added to the rollups. */
export interface ReportChatFactsTable {
  chat_id: number;
  account_id: number;
  hour: number;
  channel_id: number;
  department_id: number;
  agent_id: number;
  accepted: number;
  finished: number;
  missed: number;
  frt_ms: number | null;
  dur_ms: number | null;
  handled_ms: number;
  positive: number;
  negative: number;
}

/** A visitor's stored file under DATA_DIR/uploads (migration 016): its size counts against the account's quota. */
export interface UploadsTable {
  id: Generated<number>;
  /** The stored file name, `<random>-<name>.<ext>` (also the last segment of its URL). */
  name: string;
  account_id: number;
  channel_id: number | null;
  visitor_id: number | null;
  /** Bytes. */
  size: number;
  /** The message that carries it; null until one does, and again once that message is deleted (then it is swept). */
  message_id: number | null;
  /** The agent whose photo it is (migration 019); null for visitors' files and photos an agent let go of. */
  agent_id: number | null;
  created_at: number;
}

/** Per account (department_id 0) and department with hours: open as last announced, and when that changes (migration 024). */
export interface WorkingHoursClockTable {
  account_id: number;
  department_id: number;
  open: number;
  changes_at: number | null;
}

/** Per agent and chat: the last message the agent has seen (migration 027); unread counts are counted from it when read. */
export interface ChatReadsTable {
  agent_id: number;
  chat_id: number;
  last_read_message_id: number;
  updated_at: number;
}

/** A mail a visitor's "E-mail me this conversation" caused: a confirmation link or the transcript (migration 045). */
export interface TranscriptMailsTable {
  id: Generated<number>;
  account_id: number;
  visitor_id: number;
  chat_id: number;
  kind: 'confirmation' | 'transcript';
  email: string;
  /** The widget language the mails are written in. */
  lang: string;
  /** sha256 of the confirmation link's token; null for a transcript. */
  token_hash: string | null;
  expires_at: number | null;
  /** When the confirmation link was used (it works once). */
  used_at: number | null;
  created_at: number;
}

export interface AuditLogTable {
  id: Generated<number>;
  account_id: number;
  agent_id: number | null;
  agent_name: string | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  address: string | null;
  created_at: number;
}

export interface Database {
  accounts: AccountsTable;
  agents: AgentsTable;
  auth_tokens: AuthTokensTable;
  sign_in_throttles: SignInThrottlesTable;
  departments: DepartmentsTable;
  channels: ChannelsTable;
  channel_agents: ChannelAgentsTable;
  agent_departments: AgentDepartmentsTable;
  settings: SettingsTable;
  visitors: VisitorsTable;
  chats: ChatsTable;
  messages: MessagesTable;
  inbound_dedup: InboundDedupTable;
  events: EventsTable;
  relay_cursor: RelayCursorTable;
  deployment: DeploymentTable;
  event_retention: EventRetentionTable;
  deliveries: DeliveriesTable;
  event_webhook_given_up: EventWebhookGivenUpTable;
  offline_messages: OfflineMessagesTable;
  calls: CallsTable;
  canned_responses: CannedResponsesTable;
  password_links: PasswordLinksTable;
  email_changes: EmailChangesTable;
  agent_status_changes: AgentStatusChangesTable;
  report_chat_facts: ReportChatFactsTable;
  report_hourly: ReportHourlyTable;
  report_hist: ReportHistTable;
  report_daily: ReportDailyTable;
  report_daily_zones: ReportDailyZonesTable;
  uploads: UploadsTable;
  working_hours_clock: WorkingHoursClockTable;
  chat_reads: ChatReadsTable;
  routing_settings: RoutingSettingsTable;
  chat_offers: ChatOffersTable;
  transcript_mails: TranscriptMailsTable;
  audit_log: AuditLogTable;
  backup_runs: BackupRunsTable;
  erasures: ErasuresTable;
  web_push_keys: WebPushKeysTable;
  push_subscriptions: PushSubscriptionsTable;
  agent_tabs: AgentTabsTable;
}

/** The deployment's VAPID key pair (migration 059, server/push/vapid.ts): one row, id 1, base64url keys. */
export interface WebPushKeysTable {
  id: number;
  public_key: string;
  private_key: string;
  created_at: number;
}

/** One browser an agent asked to be notified on (migration 059, server/push/subscriptions.ts). */
export interface PushSubscriptionsTable {
  id: Generated<number>;
  account_id: number;
  agent_id: number;
  /** The push service's URL for this browser (RFC 8030); unique: a device signed in by another agent moves to them. */
  endpoint: string;
  /** The browser's P-256 public key and auth secret (RFC 8291), base64url. */
  p256dh: string;
  auth: string;
  user_agent: string | null;
  created_at: number;
  last_pushed_at: number | null;
}

/** An agent-app tab's visibility (migration 059): a visible tab, fresh, already alerts, so nothing is pushed. */
export interface AgentTabsTable {
  agent_id: number;
  tab_id: string;
  visible: Bool;
  updated_at: number;
}

export type PushSubscription = Selectable<PushSubscriptionsTable>;

/** One scheduled backup (migration 051, server/backup/scheduled.ts). */
export interface BackupRunsTable {
  id: Generated<number>;
  /** Start of the interval it belongs to; unique: one instance takes each. */
  scheduled_for: number;
  started_at: number;
  finished_at: number | null;
  status: 'running' | 'ok' | 'failed';
  file: string | null;
  size_bytes: number | null;
  chats: number | null;
  messages: number | null;
  error: string | null;
}

export type Account = Selectable<AccountsTable>;
export type Department = Selectable<DepartmentsTable>;
export type CannedResponse = Selectable<CannedResponsesTable>;
export type Upload = Selectable<UploadsTable>;
export type StoredEvent = Selectable<EventsTable>;
export type AuditEntry = Selectable<AuditLogTable>;
export type Agent = Selectable<AgentsTable>;
export type SignInThrottle = Selectable<SignInThrottlesTable>;
export type Channel = Selectable<ChannelsTable>;
export type Chat = Selectable<ChatsTable>;
export type Message = Selectable<MessagesTable>;
export type Visitor = Selectable<VisitorsTable>;
export type Delivery = Selectable<DeliveriesTable>;
export type NewMessage = Insertable<MessagesTable>;
export type ChatUpdate = Updateable<ChatsTable>;
export type Call = Selectable<CallsTable>;
export type OfflineMessage = Selectable<OfflineMessagesTable>;
export type Settings = Selectable<SettingsTable>;

/** The account's assignment settings (migration 031, docs/ROUTING.md); no row = manual. */
export interface RoutingSettingsTable {
  account_id: number;
  mode: string;
  offer_timeout_seconds: number;
  /** Seconds a chat is offered to its department's agents only; null = never to everyone. */
  everyone_after_seconds: number | null;
  updated_at: number;
}

/** A pending chat being routed (migration 031, domain/routing/): one row per chat. */
export interface ChatOffersTable {
  chat_id: number;
  account_id: number;
  department_id: number | null;
  /** The agent it is offered to now; null = nobody eligible (looked at again at expires_at). */
  agent_id: number | null;
  /** Offers made so far: 1 for the first, +1 at each later one; a wait for nobody takes none (0 until the first offer). */
  attempt: number;
  /** When the offer runs out; every move puts it later, so (attempt, expires_at) is the compare-and-set of every change. */
  expires_at: number;
  /** When the department's turn ends and everyone may be offered it; null = never. */
  everyone_at: number | null;
  /** JSON array of the agents offered it in this round. */
  tried_json: string;
  created_at: number;
  /** The agent whose offer last ran out (or who declined it), kept through a wait for nobody; null before (migration 052). */
  previous_agent_id: number | null;
}
export type ChatOffer = Selectable<ChatOffersTable>;

/** Erasing one visitor everywhere (migration 054, domain/erasure/): a job worked off in batches, resumed after a restart. */
export interface ErasuresTable {
  id: Generated<number>;
  account_id: number;
  /** The visitor being erased; its row goes at the end (no foreign key). */
  visitor_id: number;
  visitor_number: number;
  channel_id: number | null;
  /** The administrator who asked; null for retention. */
  requested_by: number | null;
  status: 'running' | 'done';
  chats_total: number;
  chats_erased: number;
  messages_total: number;
  messages_erased: number;
  files_erased: number;
  /** How far the scan for the visitor's events of no chat (offline messages, calls) has come (event id). */
  events_scanned_through: Generated<number>;
  /** `{user_token, sender_id, sender_id_is_number}` until visitor_erased is recorded, then null. */
  identifiers_json: string | null;
  created_at: number;
  updated_at: number;
  finished_at: number | null;
}
export type Erasure = Selectable<ErasuresTable>;
