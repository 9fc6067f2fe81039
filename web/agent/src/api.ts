/**
 * The app's only door to the server: typed calls of the agent/admin API
 * (/openapi.json). Auth is the HttpOnly cookie set by POST /auth/login; unsafe
 * methods echo the `parley_csrf` cookie in X-CSRF-Token. The token itself is
 * never kept in JavaScript. Errors become ApiError with the server's code and
 * sentence; a 401 also tells the app to show the sign-in form.
 */
import type {
  AgentDto,
  AuditEntryDto,
  CallDto,
  CannedResponseDto,
  ChannelDto,
  ChannelRefDto,
  ChatDto,
  ChatSearchHitDto,
  DeliveryDto,
  DepartmentDto,
  ErasureDto,
  FreedUploadsDto,
  GivenUpEventTypeDto,
  GuideDto,
  MailDto,
  MessageDto,
  NotificationPrefsDto,
  OfflineMessageDto,
  PresenceDto,
  SettingsDto,
  SignInThrottleDto,
  SystemDto,
  UploadUsageDto,
} from '../../../protocol/agent';
import type { UploadResponse, WidgetAppearance } from '../../../protocol/widget';
import { humanMessage } from './errorMessages';
import { t } from './i18n';
import type { AgentStatus, CallbackSettings, Role } from './types';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type Query = Record<string, string | number | undefined>;

let onUnauthorized: () => void = () => {};

/** Called when the server says the session is gone (401). */
export function setUnauthorizedHandler(fn: () => void): void {
  onUnauthorized = fn;
}

export function csrfToken(): string | null {
  const match = document.cookie.split('; ').find((c) => c.startsWith('parley_csrf='));
  return match ? decodeURIComponent(match.slice('parley_csrf='.length)) : null;
}

function withQuery(path: string, query?: Query): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') params.set(k, String(v));
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

export async function request<T>(method: Method, path: string, body?: unknown, query?: Query, extraHeaders: Record<string, string> = {}): Promise<T> {
  const headers: Record<string, string> = { ...extraHeaders, accept: 'application/json' };
  // A file goes as itself (its type as Content-Type); anything else as JSON.
  const raw = body instanceof Blob;
  if (body !== undefined) headers['content-type'] = raw ? body.type || 'application/octet-stream' : 'application/json';
  if (method !== 'GET') {
    const csrf = csrfToken();
    if (csrf) headers['x-csrf-token'] = csrf;
  }
  let res: Response;
  try {
    res = await fetch(withQuery(`/api/v1${path}`, query), {
      method,
      headers,
      credentials: 'same-origin',
      body: body === undefined ? undefined : raw ? body : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, 'network_error', t('pages.errors.network'));
  }
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  if (!res.ok) {
    const err = (parsed as { error?: { code?: unknown; message?: unknown } } | null)?.error;
    const code = typeof err?.code === 'string' ? err.code : `http_${res.status}`;
    const message = typeof err?.message === 'string' ? err.message : t('pages.errors.answered', { status: String(res.status) });
    if (res.status === 401 && path !== '/auth/login') onUnauthorized();
    throw new ApiError(res.status, code, message);
  }
  return parsed as T;
}

export interface Page {
  limit?: number;
  before?: number;
}

/** GET /chats/search's filters (dates as ISO 8601 strings). */
export interface SearchFilters {
  q?: string;
  channel_id?: number;
  agent_id?: number;
  department_id?: number;
  from?: string;
  to?: string;
  rating?: 'positive' | 'negative' | 'none';
  status?: ChatDto['status'];
}

export interface NewAgent {
  name: string;
  email: string;
  /** Left out: the agent is invited by mail to choose its own. */
  password?: string;
  role: Role;
  phone?: string | null;
}

export interface ProfileChanges {
  name?: string;
  phone?: string | null;
  /** An http(s) link; null clears the photo. */
  photo_url?: string | null;
}

export interface AgentChanges {
  name?: string;
  /** The agent's new sign-in address, at once (409 email_taken when another agent has it). */
  email?: string;
  role?: Role;
  phone?: string | null;
  password?: string;
  active?: boolean;
  /** Replaces the agent's departments; [] = none. */
  department_ids?: number[];
}

/** What a person changes of their own profile (PATCH /me); null clears phone and photo. */
export interface ProfileChanges {
  name?: string;
  phone?: string | null;
  photo_url?: string | null;
  /** The app's language (AGENT_LANGUAGES); null follows the browser's. */
  language?: string | null;
}

export interface ChannelFields {
  name?: string;
  webhook_url?: string | null;
  chunked?: boolean;
  agent_ids?: number[] | null;
  color?: string | null;
  allowed_domains?: string[] | null;
  rotate_secret?: boolean;
  identity_verification?: boolean;
  rotate_identity_secret?: boolean;
  hide_launcher?: boolean;
  enabled?: boolean;
  appearance?: Partial<WidgetAppearance>;
}

export type CannedResponseFields = Pick<CannedResponseDto, 'shortcut' | 'title' | 'text'>;

export type SettingsChanges = Partial<Omit<SettingsDto, 'webhook_secret' | 'callback' | 'notifications' | 'presence' | 'retention'>> & {
  retention?: { chats_days: number | null } | null;
  callback?: Partial<CallbackSettings> | null;
  notifications?: Partial<NonNullable<SettingsDto['notifications']>> | null;
  presence?: Partial<NonNullable<SettingsDto['presence']>> | null;
};

export interface OutgoingMessage {
  type: string;
  text?: string;
  file?: string;
  file_name?: string;
  file_size?: number;
  latitude?: number;
  longitude?: number;
  internal?: boolean;
}

export interface ReportQuery {
  from: string;
  to: string;
  interval?: 'day' | 'hour';
  channel_id?: number;
  department_id?: number;
  agent_id?: number;
}

/** A password link was mailed (or kept on the Mail page when no SMTP server is set). */
export interface LinkSent {
  sent_to: string;
  expires_at: number;
}

/** GET/POST /me/email: the address now, the one waiting for its link (24 h), whether mail is sent here. */
export interface EmailState {
  email: string;
  pending_email: string | null;
  expires_at: number | null;
  mail_sent: boolean;
}

/** GET /me/first-run: signed in with the password generated at the first start, and what the form starts from. */
export interface FirstRun {
  required: boolean;
  email: string;
  account_name: string;
}

/** What the link page shows before the password is chosen. */
export interface PasswordLink {
  kind: 'invite' | 'reset';
  name: string;
  email: string;
  expires_at: number;
}

/** A device the agent is notified on (GET /api/v1/me/push-subscriptions). */
export interface PushDevice {
  id: number;
  endpoint: string;
  service: string;
  user_agent: string | null;
  created_at: number;
  last_pushed_at: number | null;
}

export const api = {
  /** `must_change_password`: signed in with a one-time password, which must be changed before anything else. */
  login: (email: string, password: string) =>
    request<{ token: string; agent: AgentDto; must_change_password?: boolean }>('POST', '/auth/login', { email, password }),
  logout: () => request<void>('POST', '/auth/logout'),
  logoutAll: () => request<void>('POST', '/auth/logout-all'),
  changePassword: (currentPassword: string, newPassword: string) =>
    request<void>('PUT', '/me/password', { current_password: currentPassword, new_password: newPassword }),
  me: () => request<AgentDto>('GET', '/me'),
  /** The company's name ("" while not set; shown_name says "Parley" then). */
  account: () => request<{ name: string; shown_name: string }>('GET', '/account'),
  /** Your address, the new one waiting for its link, and whether this server sends mail at all. */
  emailState: () => request<EmailState>('GET', '/me/email'),
  /** Your own new address: a link goes to it while mail is sent (the change waits for it), else it changes at once. */
  changeEmail: (email: string) => request<EmailState>('POST', '/me/email', { email }),
  /** Opens the link mailed to a new address (no session needed: the token is the proof). */
  confirmEmail: (token: string) => request<AgentDto>('POST', '/auth/email-confirmation', { token }),
  firstRun: () => request<FirstRun>('GET', '/me/first-run'),
  completeFirstRun: (input: { current_password: string; email: string; account_name: string; new_password: string }) =>
    request<AgentDto>('POST', '/me/first-run', input),
  updateProfile: (changes: ProfileChanges) => request<AgentDto>('PATCH', '/me', changes),
  uploadPhoto: (file: File) => request<AgentDto>('POST', '/me/photo', file),
  setStatus: (status: AgentStatus) => request<AgentDto>('PUT', '/me/status', { status }),
  setPresence: (state: 'active' | 'idle') => request<PresenceDto>('PUT', '/me/presence', { state }),
  notificationPrefs: () => request<NotificationPrefsDto>('GET', '/me/notifications'),
  updateNotificationPrefs: (changes: Partial<NotificationPrefsDto>) => request<NotificationPrefsDto>('PUT', '/me/notifications', changes),
  /** Web Push (docs/NOTIFICATIONS.md): the key to subscribe with, this agent's devices, its tabs' visibility. */
  vapidPublicKey: () => request<{ public_key: string }>('GET', '/push/vapid-public-key'),
  pushDevices: () => request<{ subscriptions: PushDevice[] }>('GET', '/me/push-subscriptions'),
  addPushDevice: (subscription: PushSubscriptionJSON) => request<PushDevice>('POST', '/me/push-subscriptions', subscription),
  removePushDevice: (endpoint: string) => request<void>('DELETE', '/me/push-subscriptions', { endpoint }),
  removePushDeviceById: (id: number) => request<void>('DELETE', `/me/push-subscriptions/${id}`),
  markTab: (tab: string, visible: boolean) => request<void>('PUT', `/me/tabs/${encodeURIComponent(tab)}`, { visible }),
  guide: () => request<GuideDto>('GET', '/me/guide'),
  dismissGuide: () => request<void>('POST', '/me/guide/dismiss'),
  /** The channels whose chats this agent sees (all of them for an administrator). */
  myChannels: () => request<ChannelRefDto[]>('GET', '/me/channels'),

  chats: (status: ChatDto['status'], page: Page = {}) => request<ChatDto[]>('GET', '/chats', undefined, { status, ...page }),
  chat: (id: number) => request<ChatDto>('GET', `/chats/${id}`),
  /** Search over the whole history on the server; without q, the filters alone list chats. */
  searchChats: (filters: SearchFilters, page: Page = {}) => request<ChatSearchHitDto[]>('GET', '/chats/search', undefined, { ...filters, ...page }),
  visitorChats: (visitorId: number, page: Page = {}) => request<ChatDto[]>('GET', `/visitors/${visitorId}/chats`, undefined, { ...page }),
  /** This agent has seen the chat (up to messageId, or its last message): its unread count drops, on every device. */
  read: (id: number, messageId?: number) =>
    request<{ chat_id: number; last_read_message_id: number }>('POST', `/chats/${id}/read`, messageId === undefined ? {} : { message_id: messageId }),
  accept: (id: number) => request<ChatDto>('POST', `/chats/${id}/accept`),
  /** Passes a chat offered to this agent on to the next one at once (docs/ROUTING.md); 409 when it is not offered to this agent (any more). */
  decline: (id: number) => request<{ declined: boolean }>('POST', `/chats/${id}/decline`),
  send: (id: number, message: OutgoingMessage) => request<MessageDto>('POST', `/chats/${id}/messages`, message),
  /** A file for a reply (sent afterwards with `send` as {type, file, file_name, file_size}); its name URI-encoded, as headers are Latin-1. */
  uploadFile: (id: number, file: File) =>
    request<UploadResponse>('POST', `/chats/${id}/uploads`, file, undefined, { 'x-file-name': encodeURIComponent(file.name) }),
  typing: (id: number, typing: boolean) => request<void>('POST', `/chats/${id}/typing`, { typing }),
  assign: (id: number) => request<ChatDto>('POST', `/chats/${id}/assign`),
  finish: (id: number, blacklist: boolean) => request<ChatDto>('POST', `/chats/${id}/finish`, { blacklist }),
  transfer: (id: number, agentId: number) => request<ChatDto>('POST', `/chats/${id}/transfer`, { agent_id: agentId }),

  offlineMessages: (page: Page = {}, handled?: boolean) =>
    request<OfflineMessageDto[]>('GET', '/offline-messages', undefined, { ...page, ...(handled === undefined ? {} : { handled: String(handled) }) }),
  markOfflineMessage: (id: number, handled: boolean) => request<OfflineMessageDto>('PATCH', `/offline-messages/${id}`, { handled }),
  calls: (page: Page = {}) => request<CallDto[]>('GET', '/calls', undefined, { ...page }),
  callStatus: (id: number, body: { status: string; reason?: string; record_url?: string }) => request<CallDto>('POST', `/calls/${id}/status`, body),

  agents: (page: Page = {}) => request<AgentDto[]>('GET', '/agents', undefined, { limit: 1000, ...page }),
  createAgent: (body: NewAgent) => request<AgentDto>('POST', '/agents', body),
  updateAgent: (id: number, changes: AgentChanges) => request<AgentDto>('PATCH', `/agents/${id}`, changes),

  departments: () => request<DepartmentDto[]>('GET', '/departments', undefined, { limit: 1000 }),
  createDepartment: (name: string) => request<DepartmentDto>('POST', '/departments', { name }),
  renameDepartment: (id: number, name: string) => request<DepartmentDto>('PATCH', `/departments/${id}`, { name }),
  deleteDepartment: (id: number) => request<void>('DELETE', `/departments/${id}`),

  cannedResponses: () => request<CannedResponseDto[]>('GET', '/canned-responses', undefined, { limit: 1000 }),
  createCannedResponse: (body: CannedResponseFields) => request<CannedResponseDto>('POST', '/canned-responses', body),
  updateCannedResponse: (id: number, changes: Partial<CannedResponseFields>) => request<CannedResponseDto>('PATCH', `/canned-responses/${id}`, changes),
  deleteCannedResponse: (id: number) => request<void>('DELETE', `/canned-responses/${id}`),

  channels: () => request<ChannelDto[]>('GET', '/channels', undefined, { limit: 1000 }),
  createChannel: (body: ChannelFields & { type: ChannelDto['type']; name: string }) => request<ChannelDto>('POST', '/channels', body),
  updateChannel: (id: number, fields: ChannelFields) => request<ChannelDto>('PATCH', `/channels/${id}`, fields),
  deleteChannel: (id: number) => request<void>('DELETE', `/channels/${id}`),

  settings: () => request<SettingsDto>('GET', '/settings'),
  updateSettings: (changes: SettingsChanges) => request<SettingsDto>('PUT', '/settings', changes),
  rotateWebhookSecret: () => request<SettingsDto>('POST', '/settings/webhook-secret/rotate'),
  resumeWebhooks: () => request<SettingsDto>('POST', '/settings/webhooks/resume'),
  givenUpEventTypes: () => request<GivenUpEventTypeDto[]>('GET', '/settings/webhooks/given-up'),
  resumeEventType: (eventType: string) => request<GivenUpEventTypeDto[]>('POST', `/settings/webhooks/given-up/${encodeURIComponent(eventType)}/resume`),

  /** The link of a kept invitation or password reset, made now to copy (an earlier copy stops working); never stored. */
  mailLink: (id: number) => request<{ url: string; expires_at: number; to: string }>('POST', `/mails/${id}/link`),
  mails: (page: Page = {}) => request<MailDto[]>('GET', '/mails', undefined, { limit: 50, ...page }),
  mailStatus: () => request<{ smtp: boolean; from: string }>('GET', '/mails/status'),
  inviteAgent: (id: number) => request<LinkSent>('POST', `/agents/${id}/invitation`),
  forcePasswordReset: (id: number) => request<LinkSent>('POST', `/agents/${id}/password-reset`),
  forgotPassword: (email: string) => request<{ result: string; message: string }>('POST', '/auth/forgot-password', { email }),
  passwordLink: (token: string) => request<PasswordLink>('GET', '/auth/password-link', undefined, { token }),
  setPassword: (token: string, password: string) => request<void>('POST', '/auth/set-password', { token, password }),

  deliveries: (filter: Page & { status?: string; kind?: string } = {}) => request<DeliveryDto[]>('GET', '/deliveries', undefined, { limit: 50, ...filter }),
  redeliver: (id: number) => request<DeliveryDto>('POST', `/deliveries/${id}/redeliver`),

  throttles: (page: Page = {}) => request<SignInThrottleDto[]>('GET', '/auth/throttles', undefined, { limit: 1000, ...page }),
  clearThrottle: (id: number) => request<void>('DELETE', `/auth/throttles/${id}`),

  uploadUsage: () => request<UploadUsageDto>('GET', '/uploads/usage'),
  system: () => request<SystemDto>('GET', '/system'),
  version: () => request<{ version: string; migration: string | null; migrations_applied: number; store: string }>('GET', '/version'),
  audit: (page: Page = {}) => request<AuditEntryDto[]>('GET', '/audit', undefined, { limit: 50, ...page }),
  /** Frees what a visitor uploaded and the files of its chats; the messages stay, marked file_removed. */
  freeVisitorUploads: (visitorId: number) => request<FreedUploadsDto>('DELETE', `/visitors/${visitorId}/uploads`),
  /** Erases a visitor and everything about it (administrators): 202 with the job; its progress at erasure(id). */
  eraseVisitor: (visitorId: number) => request<{ erasure: ErasureDto }>('DELETE', `/visitors/${visitorId}`),
  erasure: (id: number) => request<{ erasure: ErasureDto }>('GET', `/erasures/${id}`),

  /** One report of /reports/* (the Reports page types its answer: reports/model.ts). */
  report: <T>(name: 'chats' | 'response-times' | 'ratings' | 'agents' | 'busiest-hours', query: ReportQuery) =>
    request<T>('GET', `/reports/${name}`, undefined, { ...query }),
};

/** A sentence for any error thrown by the calls above. */
/** A failure in the reader's words (errorMessages.ts maps the API's refusals; the API keeps its precise message). */
export function errorText(err: unknown): string {
  if (err instanceof ApiError) return humanMessage(err.code, err.message);
  if (err instanceof Error) return err.message;
  return t('pages.errors.unknown');
}
