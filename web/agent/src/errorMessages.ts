/**
 * The API's refusals in words for the person at the screen. The API keeps its
 * precise messages (`callback.hours.mon[0] must be a range ["HH:MM","HH:MM"]`,
 * for programs and logs); the app finds the field a refusal names (the path at
 * its start, in the domain's dots or the schema's slashes) or its error code,
 * and says it the way the screen does ("Monday: opening hours must look like
 * 09:00–17:30"). A refusal this table does not know keeps the server's
 * sentence, which is written to be read too. FIELD_MESSAGES and CODE_MESSAGES
 * are the app's one table of error wording: a translation replaces them.
 * api.ts's errorText() passes every failure through humanMessage().
 */

const DAYS: Record<string, string> = { mon: 'Monday', tue: 'Tuesday', wed: 'Wednesday', thu: 'Thursday', fri: 'Friday', sat: 'Saturday', sun: 'Sunday' };

/** The value a message quotes after "got", when it does. */
const got = (text: string): string | null => /\(got "?([^")]*)"?\)/.exec(text)?.[1] ?? null;

type Words = string | ((text: string, match: RegExpExecArray) => string);

/** By the field at the start of a validation message (in dots, after normalising the schema's body/a/b/0). */
export const FIELD_MESSAGES: ReadonlyArray<readonly [RegExp, Words]> = [
  [
    /^callback\.hours\.(\w+)/,
    (_t, m) => `${DAYS[m[1]] ?? m[1]}: opening hours must look like 09:00–17:30, the start before the end; separate several ranges with commas.`,
  ],
  [/^callback\.hours\b/, 'Opening hours must look like 09:00–17:30, the start before the end; separate several ranges with commas.'],
  [/^callback\.timezone\b|^timezone must\b/, 'Pick a time zone by its name, such as Europe/Berlin or America/New_York.'],
  [/^callback\.balance_seconds\b/, 'Call time left must be a whole number of seconds, 0 or more.'],
  [/^event_webhook_url\b/, 'The event webhook URL must be a public web address starting with https://, such as https://crm.example.com/parley-events.'],
  [/^safe_url\b/, 'The Safe URL must be a web address starting with https://, such as https://www.example.com.'],
  [
    /^notifications\.emails\b/,
    (t) => {
      const value = got(t);
      return value !== null
        ? `"${value}" is not an e-mail address; write addresses such as support@example.com, one per line.`
        : 'Write e-mail addresses such as support@example.com, one per line, at most 20.';
    },
  ],
  [/^notifications\.missed_chat_minutes\b/, 'The missed-chat delay must be a whole number of minutes from 1 to 1440, or empty for no missed-chat mail.'],
  [/^notifications\.archive_email\b/, 'The archive address must be an e-mail address such as archive@example.com.'],
  [/^presence\.away_after_idle_minutes\b/, 'The idle delay must be a whole number of minutes from 0 (never) to 1440.'],
  [/^presence\.default_status\b/, 'Pick Online, Away or Offline as the status of agents who never chose one.'],
  [/^webhook_url\b/, "The webhook URL must be a web address starting with https:// where your system receives agents' replies."],
  [/^allowed_domains\b/, 'Allowed domains are host names such as example.com or *.example.com, one per line, without https:// or a path.'],
  [/^color\b/, 'Write the colour like #1a73e8.'],
  [/^email must\b/, 'Enter an e-mail address such as name@example.com.'],
  [/^password must have at least (\d+)/, (_t, m) => `The password is too short: use at least ${m[1]} characters.`],
  [/^shortcut must\b/, 'A shortcut is 1 to 32 characters: letters a–z, digits, "_" or "-", such as refund-policy.'],
  [/^volume\b/, 'The volume goes from 0 to 100.'],
];

/** By error code, where the server's sentence is not written for this screen. */
export const CODE_MESSAGES: Readonly<Record<string, string>> = {
  csrf_failed: 'This page is out of date; reload it and try again.',
  too_many_requests: 'Too many tries in a short time; wait a minute and try again.',
  outbound_url_refused:
    'This address points inside a private network (this machine or a local network), which Parley does not send to unless the server is started with OUTBOUND_ALLOW_PRIVATE=1. Use a public address, or ask whoever runs Parley to allow private addresses (for a receiver on your own machine or network).',
  internal_error: 'Something went wrong on the server and nothing was saved; try again.',
  service_unavailable: 'The server is busy or its database is unreachable; nothing was saved. Try again in a moment.',
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
  if (!m) return CODE_MESSAGES.outbound_url_refused;
  return `Parley does not send to ${m[1]}: it is ${m[2]}, inside this machine or a private network. Use a public address, such as https://crm.example.com/parley. To try a receiver on your own machine or network, whoever runs the Parley server can start it with OUTBOUND_ALLOW_PRIVATE=1, which allows private addresses.`;
}

/** What to show for a refusal: the table's words when it knows the field or the code, else the server's sentence. */
export function humanMessage(code: string, message: string): string {
  if (code === 'outbound_url_refused') return outboundRefusedMessage(message);
  if (code === 'validation_failed') {
    const text = normaliseMessage(message);
    for (const [pattern, words] of FIELD_MESSAGES) {
      const m = pattern.exec(text);
      if (m) return typeof words === 'string' ? words : words(text, m);
    }
  }
  return CODE_MESSAGES[code] ?? message;
}
