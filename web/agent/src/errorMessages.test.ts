/** The API's refusals read by the person at the screen: known fields and codes in the screen's words, the rest as the server wrote them. */
import { afterEach, describe, expect, it } from 'vitest';
import { errorRegistry } from '../../../server/errors/registry';
import { CODE_MESSAGES, humanMessage, normaliseMessage } from './errorMessages';
import { AGENT_LANGUAGES, setLanguage } from './i18n';
import ar from './i18n/ar/pages.json';
import de from './i18n/de/pages.json';
import en from './i18n/en/pages.json';
import es from './i18n/es/pages.json';
import fr from './i18n/fr/pages.json';
import pt from './i18n/pt/pages.json';
import ru from './i18n/ru/pages.json';
import tr from './i18n/tr/pages.json';
import uk from './i18n/uk/pages.json';

// setLanguage sets <html lang dir>: a stand-in document is enough here.
(globalThis as { document?: unknown }).document ??= { documentElement: { lang: '', dir: '' } };

describe('humanMessage', () => {
  it('says what a callback-hours refusal means, naming the day', () => {
    expect(
      humanMessage('validation_failed', 'callback.hours.mon[0] must be a range ["HH:MM","HH:MM"] with 00:00 ≤ start < end ≤ 24:00 (got ["9","17:30"]).'),
    ).toBe('Monday: opening hours must look like 09:00–17:30, the start before the end; separate several ranges with commas.');
  });

  it('reads the schema slashes like the domain dots', () => {
    expect(normaliseMessage('Invalid request: body/presence/away_after_idle_minutes must be integer')).toBe('presence.away_after_idle_minutes must be integer');
    expect(humanMessage('validation_failed', 'Invalid request: body/presence/away_after_idle_minutes must be integer')).toBe(
      'The idle delay must be a whole number of minutes from 0 (never) to 1440.',
    );
  });

  it('keeps the value the person typed when the server quotes it', () => {
    expect(humanMessage('validation_failed', 'notifications.emails[1] must be an e-mail address such as support@example.com (got "nope").')).toBe(
      '"nope" is not an e-mail address; write addresses such as support@example.com, one per line.',
    );
    expect(humanMessage('validation_failed', 'password must have at least 8 characters.')).toBe('The password is too short: use at least 8 characters.');
  });

  it('maps codes whose sentence is not for this screen, and keeps the rest as written', () => {
    expect(humanMessage('internal_error', 'Internal server error.')).toMatch(/nothing was saved/);
    expect(humanMessage('chat_already_accepted', 'Another agent accepted this chat first.')).toBe('Another agent accepted this chat first.');
    expect(humanMessage('validation_failed', 'Monday: "9-5" is not a range of times; write times as HH:MM between 00:00 and 24:00.')).toBe(
      'Monday: "9-5" is not a range of times; write times as HH:MM between 00:00 and 24:00.',
    );
  });
});

describe('a private webhook address (#36 item 5)', () => {
  it('names the host and why, and says OUTBOUND_ALLOW_PRIVATE allows it', () => {
    const server =
      'event_webhook_url points to 127.0.0.1, a loopback address; the service does not send requests to private networks (OUTBOUND_ALLOW_PRIVATE=1 allows it).';
    const text = humanMessage('outbound_url_refused', server);
    expect(text).toContain('Parley does not send to 127.0.0.1: it is a loopback address');
    expect(text).toContain('Use a public address');
    expect(text).toContain('OUTBOUND_ALLOW_PRIVATE=1');
  });
  it('says the setting even when the server sentence is not the usual one', () => {
    expect(humanMessage('outbound_url_refused', 'something else')).toContain('OUTBOUND_ALLOW_PRIVATE=1');
  });
});

describe('every error code in every language (#38)', () => {
  afterEach(() => setLanguage('en'));
  const PAGES: Record<string, Record<string, unknown>> = { en, ru, es, de, fr, pt, tr, uk, ar };

  it('has words for each code of the server’s error registry, in all nine languages', () => {
    expect(Object.keys(PAGES).sort()).toEqual([...AGENT_LANGUAGES].sort());
    const missing: string[] = [];
    for (const code of Object.keys(errorRegistry)) {
      const key = CODE_MESSAGES[code];
      if (!key) {
        missing.push(`${code}: no key`);
        continue;
      }
      for (const [lang, texts] of Object.entries(PAGES)) {
        const text = texts[key];
        if (typeof text !== 'string' || text.trim() === '') missing.push(`${code}: no ${lang} text for ${key}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('says a refusal in the agent’s language, not the server’s English; English keeps the server’s sentence', async () => {
    expect(humanMessage('chat_already_accepted', 'Another agent accepted this chat first.')).toBe('Another agent accepted this chat first.');
    await setLanguage('de');
    expect(humanMessage('chat_already_accepted', 'Another agent accepted this chat first.')).toBe(de['pages.errors.chatAccepted']);
    expect(humanMessage('shortcut_taken', 'Another canned response of this account already has this shortcut.')).toBe(de['pages.errors.shortcutTaken']);
    // A validation message whose field the app does not know: the code's words.
    expect(humanMessage('validation_failed', 'name must have at most 80 characters.')).toBe(de['pages.errors.validation']);
    // A field the app knows still gets its own words.
    expect(humanMessage('validation_failed', 'password must have at least 8 characters.')).toContain('8');
    expect(humanMessage('validation_failed', 'password must have at least 8 characters.')).not.toContain('password');
    // A code this app does not know yet (a newer server): its sentence rather than nothing.
    expect(humanMessage('some_new_code', 'Something new.')).toBe('Something new.');
  });
});
