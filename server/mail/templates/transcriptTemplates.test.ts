/**
 * The transcript templates' wording and direction, pure: the missed-chat mail
 * counts its minutes by the plural rules; a visitor's mail in Arabic reads
 * right to left as a whole, one in English left to right, and an English
 * line inside the Arabic mail keeps its own direction.
 */
import { describe, expect, it } from 'vitest';
import type { Chat } from '../../db/schema.js';
import type { ChatTranscript } from '../transcript.js';
import { missedChatMail, visitorTranscriptMail } from './transcript.js';

const scope = { accountName: 'Corner Shop', recipients: ['desk@example.com'], settingsUrl: 'http://parley.test/admin/settings#notifications', timezone: 'UTC' };
const transcript = (chat: Partial<Chat>, lines: ChatTranscript['lines']): ChatTranscript => ({
  chat: { id: 7, created_at: 0, finished_at: null, missed_at: 60_000, ...chat } as Chat,
  visitor: { number: 3, name: null, email: null, phone: null },
  channelName: 'Shop',
  contact: null,
  lines,
});

describe('transcript templates', () => {
  it('counts the minutes a missed chat waited by the plural rules', () => {
    expect(missedChatMail(scope, 'http://parley.test', transcript({}, []), 1).text.split('\n')[0]).toBe('Visitor 3 has waited 1 minute for an answer');
    expect(missedChatMail(scope, 'http://parley.test', transcript({}, []), 5).text.split('\n')[0]).toBe('Visitor 3 has waited 5 minutes for an answer');
    const finished = transcript({ finished_at: 60_000, missed_at: 60_000 }, []);
    expect(missedChatMail(scope, 'http://parley.test', finished, 1).text.split('\n')[0]).toBe(
      "Visitor 3's chat was finished after 1 minute without an answer from an agent",
    );
  });

  it("writes an Arabic visitor's mail right to left, an English one left to right; each line takes its own direction", () => {
    const lines = [
      { who: 'أنت', at: '10:00', text: 'مرحبا!' },
      { who: 'Alice', at: '10:01', text: 'Hello! See https://shop.example/help.' },
    ];
    const ar = visitorTranscriptMail(scope, transcript({}, lines), 'ar');
    expect(ar.html).toMatch(/^<!doctype html><html lang="ar" dir="rtl">/);
    expect(ar.html).toContain('<td dir="auto">مرحبا!</td>');
    expect(ar.html).toContain(
      '<td dir="auto">Hello! See <a href="https://shop.example/help" target="_blank" rel="noopener noreferrer">https://shop.example/help</a>.</td>',
    );
    expect(ar.text).toContain('[10:00] \u2068أنت\u2069: \u2068مرحبا!\u2069\n[10:01] Alice: Hello! See https://shop.example/help.');
    const en = visitorTranscriptMail(scope, transcript({}, lines), 'en');
    expect(en.html).toMatch(/^<!doctype html><html lang="en" dir="ltr">/);
  });
});
