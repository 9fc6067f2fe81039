/**
 * The templates of the mails to agents and notification addresses in a
 * language other than English, pure: the missed-chat mail counts its
 * minutes by the language's plural rules, the archive copy and the backup
 * failure are written in the language with its dates, and the visitor's
 * mails (widget language) end with a footer in that language, not English.
 */
import { describe, expect, it } from 'vitest';
import type { Chat } from '../../db/schema.js';
import type { ChatTranscript } from '../transcript.js';
import { backupFailedMail } from './system.js';
import { archiveMail, missedChatMail, transcriptConfirmationMail, visitorTranscriptMail } from './transcript.js';

const scope = { accountName: 'Corner Shop', recipients: ['desk@example.com'], settingsUrl: 'http://parley.test/admin/settings#notifications', timezone: 'UTC' };
const transcript = (chat: Partial<Chat>, lines: ChatTranscript['lines']): ChatTranscript => ({
  chat: { id: 7, created_at: 0, finished_at: null, missed_at: 60_000, rate: null, ...chat } as Chat,
  visitor: { number: 3, name: null, email: null, phone: null },
  channelName: 'Shop',
  contact: null,
  lines,
});
const firstLine = (text: string) => text.split('\n')[0];

describe('mails to agents in their language', () => {
  it('counts the minutes of a missed chat in German and Arabic', () => {
    const waiting = transcript({}, []);
    const de = missedChatMail(scope, 'http://parley.test', waiting, 5, 'de');
    expect(de.subject).toBe('Verpasster Chat: Besucher 3 wartet seit 5 Min.');
    expect(firstLine(de.text)).toBe('Besucher 3 wartet seit 5 Minuten auf eine Antwort');
    expect(firstLine(missedChatMail(scope, 'http://parley.test', waiting, 1, 'de').text)).toBe('Besucher 3 wartet seit 1 Minute auf eine Antwort');
    expect(de.text).toContain('Begonnen: 1. Jan. 1970, 00:00 (UTC)');
    expect(de.text).toContain('(keine Nachrichten)');
    expect(de.text).toContain('Chat beantworten: http://parley.test/chats/7');
    const ar = missedChatMail(scope, 'http://parley.test', waiting, 2, 'ar');
    expect(firstLine(ar.text)).toBe('الزائر 3 ينتظر الرد، ومدة الانتظار حتى الآن دقيقتان');
    expect(ar.html).toMatch(/^<!doctype html><html lang="ar" dir="rtl">/);
  });

  it('writes the archive copy in the language, its dates in it', () => {
    const lines = [{ who: 'Alice', at: '10:00', text: 'Bonjour' }];
    const fr = archiveMail(scope, 'http://parley.test', transcript({ finished_at: 120_000 }, lines), 'fr');
    expect(fr.subject).toBe('Chat n° 7 avec Visiteur 3');
    expect(fr.text).toContain('Visiteur: #3');
    expect(fr.text).toContain('Fin: 1 janv. 1970, 00:02 (UTC)');
    expect(fr.text).toContain('Ouvrir le chat: http://parley.test/chats/7');
    expect(fr.text).toContain('Envoyé par Parley pour Corner Shop.');
  });

  it('writes the backup failure in the admin’s language', () => {
    const d = { accountName: 'Corner Shop', publicUrl: 'http://parley.test', startedAt: '2026-12-02T03:00:00.000Z', dir: '/var/backups', error: 'ENOSPC' };
    const de = backupFailedMail(d, 'de');
    expect(de.subject).toBe('Parley: Die geplante Sicherung ist fehlgeschlagen');
    expect(de.text).toContain('Verzeichnis: /var/backups');
    expect(de.text).toContain('Admin → System öffnen: http://parley.test/admin/system');
    expect(backupFailedMail(d).subject).toBe('Parley: the scheduled backup failed');
  });
});

describe("the visitor's mails in the widget's language", () => {
  it('end with a footer in that language and write the date in it', () => {
    const de = visitorTranscriptMail(scope, transcript({}, []), 'de');
    expect(de.text).toContain('Begonnen am 1. Jan. 1970, 00:00 (UTC). Sie haben diese Kopie des Gesprächs angefordert.');
    expect(de.text).toContain('\n--\n\nVon Parley gesendet für Corner Shop.\n');
    expect(de.text).not.toContain('Sent by');
    expect(de.html).toContain('Von Parley gesendet für Corner Shop.');
    const ar = transcriptConfirmationMail(scope, 'http://parley.test/widget/transcript/x', 'ar');
    expect(ar.text).toContain('أُرسلت بواسطة Parley لصالح Corner Shop.');
    expect(visitorTranscriptMail(scope, transcript({}, []), 'en').text).toContain('Started 1 Jan 1970, 00:00 (UTC).');
  });
});
