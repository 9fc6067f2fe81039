/**
 * The API's refusals in words for the person at the screen. The API keeps its
 * precise messages (`callback.hours.mon[0] must be a range ["HH:MM","HH:MM"]`,
 * for programs and logs); the app finds the field a refusal names (the path at
 * its start, in the domain's dots or the schema's slashes) or its error code,
 * and says it the way the screen does ("Monday: opening hours must look like
 * 09:00–17:30"). Every code of the API has its words here too: a refusal
 * whose field the table does not know reads, in English, the server's
 * sentence (written to be read too), in another language the words of its
 * code, never the server's English. FIELD_MESSAGES and CODE_MESSAGES
 * are the app's one table of error wording, in every language's catalogue.
 * api.ts's errorText() passes every failure through humanMessage().
 */

import { formatDateTime, language, t } from './i18n';
import type { TextKey } from './i18n/en';

/** A weekday the API names (mon … sun) in the app's language: 2024-01-01 was a Monday. */
const DAY_INDEX: Record<string, number> = { mon: 0, tue: 1, wed: 2, thu: 3, fri: 4, sat: 5, sun: 6 };
const dayName = (day: string): string => (day in DAY_INDEX ? formatDateTime(Date.UTC(2024, 0, 1 + DAY_INDEX[day]), { timeZone: 'UTC', weekday: 'long' }) : day);

/** The value a message quotes after "got", when it does. */
const got = (text: string): string | null => /\(got "?([^")]*)"?\)/.exec(text)?.[1] ?? null;

/** A catalogue key, or the words built from the message (read when the refusal is shown, in the language of the moment). */
type Words = TextKey | ((text: string, match: RegExpExecArray) => string);

/** By the field at the start of a validation message (in dots, after normalising the schema's body/a/b/0). */
export const FIELD_MESSAGES: ReadonlyArray<readonly [RegExp, Words]> = [
  [/^callback\.hours\.(\w+)/, (_t, m) => t('pages.errors.dayHours', { day: dayName(m[1]) })],
  [/^callback\.hours\b/, 'pages.errors.hours'],
  [/^callback\.timezone\b|^timezone must\b/, 'pages.errors.timezone'],
  [/^callback\.balance_seconds\b/, 'pages.errors.balance'],
  [/^event_webhook_url\b/, 'pages.errors.eventWebhook'],
  [/^safe_url\b/, 'pages.errors.safeUrl'],
  [
    /^notifications\.emails\b/,
    (text) => {
      const value = got(text);
      return value !== null ? t('pages.errors.notAnEmail', { value }) : t('pages.errors.emails');
    },
  ],
  [/^notifications\.missed_chat_minutes\b/, 'pages.errors.missedMinutes'],
  [/^notifications\.archive_email\b/, 'pages.errors.archiveEmail'],
  [/^presence\.away_after_idle_minutes\b/, 'pages.errors.idleMinutes'],
  [/^presence\.default_status\b/, 'pages.errors.defaultStatus'],
  [/^webhook_url\b/, 'pages.errors.webhook'],
  [/^allowed_domains\b/, 'pages.errors.domains'],
  [/^color\b/, 'pages.errors.color'],
  [/^email must\b/, 'pages.errors.email'],
  [/^password must have at least (\d+)/, (_t, m) => t('pages.errors.password', { count: Number(m[1]) })],
  [/^shortcut must\b/, 'pages.errors.shortcut'],
  [/^volume\b/, 'pages.errors.volume'],
];

/** By error code, where the server's sentence is not written for this screen: these words in every language. */
const OWN_WORDS: Readonly<Record<string, TextKey>> = {
  csrf_failed: 'pages.errors.csrf',
  too_many_requests: 'pages.errors.tooMany',
  outbound_url_refused: 'pages.errors.outbound',
  internal_error: 'pages.errors.internal',
  service_unavailable: 'pages.errors.unavailable',
  // api.ts's own: fetch failed, so there is no server sentence (said again at display, in the language of the moment).
  network_error: 'pages.errors.network',
};

/**
 * Every error code the API can answer (server/errors/registry.ts; a test keeps
 * the two equal) in the app's words: in English the server's own sentence is
 * shown where it is written for the reader, in another language these words
 * (the server writes English only).
 */
export const CODE_MESSAGES: Readonly<Record<string, TextKey>> = {
  ...OWN_WORDS,
  invalid_json: 'pages.errors.invalidJson',
  validation_failed: 'pages.errors.validation',
  missing_sender_id: 'pages.errors.missingSender',
  invalid_message: 'pages.errors.invalidMessage',
  unauthorized: 'pages.errors.unauthorized',
  invalid_credentials: 'pages.errors.credentials',
  one_time_password_used: 'pages.errors.oneTimeUsed',
  forbidden: 'pages.errors.forbidden',
  origin_not_allowed: 'pages.errors.originNotAllowed',
  password_change_required: 'pages.errors.passwordChange',
  wrong_password: 'pages.errors.wrongPassword',
  not_found: 'pages.errors.notFound',
  route_not_found: 'pages.errors.routeNotFound',
  link_invalid: 'pages.errors.linkInvalid',
  email_taken: 'pages.errors.emailTaken',
  chat_already_accepted: 'pages.errors.chatAccepted',
  chat_finished: 'pages.errors.chatFinished',
  conflict: 'pages.errors.conflict',
  call_finished: 'pages.errors.callFinished',
  shortcut_taken: 'pages.errors.shortcutTaken',
  link_expired: 'pages.errors.linkExpired',
  payload_too_large: 'pages.errors.tooLarge',
  upload_quota_exceeded: 'pages.errors.quotaFull',
  unsupported_media_type: 'pages.errors.mediaType',
  storage_full: 'pages.errors.storageFull',
};

/** The field a validation message starts with, in dots: "body/callback/hours/mon/0 must …" → "callback.hours.mon.0 must …". */
export function normaliseMessage(message: string): string {
  const m = /^(?:Invalid request: )?(?:body[/.])?(\S+)(.*)$/s.exec(message);
  if (!m) return message;
  return m[1].replace(/\//g, '.').replace(/\[(\d+)\]/g, '.$1') + m[2];
}

/**
 * A webhook URL refused for a private or loopback host: which host and why
 * (from the server's sentence: "… points to 127.0.0.1, a loopback address; …"),
 * and the way out, OUTBOUND_ALLOW_PRIVATE, for a receiver on one's own machine.
 */
export function outboundRefusedMessage(message: string): string {
  const m = /points to (\S+), ([^;]+);/.exec(message) ?? /Refused: (\S+) (?:is|resolves to [^,]+,) ([^;]+);/.exec(message);
  if (!m) return t(CODE_MESSAGES.outbound_url_refused);
  // The reason ("a loopback address") is the server's English words, quoted as they come.
  return t('pages.errors.outboundHost', { host: m[1], reason: m[2] });
}

/**
 * What to show for a refusal: the table's words when it knows the field, or
 * the code's where the server's sentence is not for this screen; else, in
 * English, the server's sentence (written to be read, and more precise), and
 * in another language the code's words. A code the app does not know (a newer
 * server) keeps the server's sentence.
 */
export function humanMessage(code: string, message: string): string {
  if (code === 'outbound_url_refused') return outboundRefusedMessage(message);
  if (code === 'validation_failed') {
    const text = normaliseMessage(message);
    for (const [pattern, words] of FIELD_MESSAGES) {
      const m = pattern.exec(text);
      if (m) return typeof words === 'string' ? t(words) : words(text, m);
    }
  }
  const own = OWN_WORDS[code];
  if (own) return t(own);
  const key = CODE_MESSAGES[code];
  if (!key || (language() === 'en' && message.trim() !== '')) return message;
  return t(key);
}
