/**
 * The server's texts to agents (agentTexts/): every language of the agent
 * app has every English key, no more, each text non-empty with exactly the
 * `{values}` its English one has; the texts are translated (a language that
 * copied English for most of its keys fails); and `say` falls back to
 * English for a language it does not speak.
 */
import { describe, expect, it } from 'vitest';
import { AGENT_LANGUAGES } from '../../../../protocol/agent.js';
import { AGENT_TEXTS, say, textLanguage } from './index.js';
import { en } from './en.js';

const values = (text: string): string[] => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('agent texts catalogue', () => {
  it('has a catalogue for every language of the agent app', () => {
    expect(Object.keys(AGENT_TEXTS).sort()).toEqual([...AGENT_LANGUAGES].sort());
  });

  for (const lang of AGENT_LANGUAGES) {
    it(`${lang}: every key, with the same {values}, translated`, () => {
      const texts = AGENT_TEXTS[lang] as Record<string, unknown>;
      expect(Object.keys(texts).sort()).toEqual(Object.keys(en).sort());
      for (const [key, source] of Object.entries(en)) {
        const text = texts[key];
        expect(typeof text === 'string' && text.trim() !== '', `${lang}.${key} is empty`).toBe(true);
        expect(values(text as string), `${lang}.${key}`).toEqual(values(source));
      }
      if (lang === 'en') return;
      // Names of things ("Parley", "Name", "Chat") may be the same word; most texts may not.
      const copied = Object.keys(en).filter((key) => texts[key] === en[key as keyof typeof en]);
      expect(copied.length, `${lang} copies English in ${copied.join(', ')}`).toBeLessThan(6);
    });
  }

  it('fills values and falls back to English for a language it does not speak', () => {
    expect(say('de', 'pushNewChatTitle', { name: 'Ann' })).toBe('Neuer Chat: Ann');
    expect(say('ar', 'pushOfferedBody', { seconds: 45 })).toBe('اقبلها خلال 45 ث.');
    expect(say('xx', 'pushNewChatTitle', { name: 'Ann' })).toBe('New chat: Ann');
    expect(say(null, 'hello', { name: 'Ann' })).toBe('Hello Ann,');
    expect(textLanguage('pt')).toBe('pt');
    expect(textLanguage('pt-BR')).toBe('en');
  });
});
