/**
 * The texts the server writes to agents, in each language of the agent app
 * (protocol/agent.ts AGENT_LANGUAGES): mails to an agent's address and to
 * the notification addresses, and Web Push notifications. Which language a
 * mail is written in: mailLanguages.ts (docs/I18N.md "Mails and
 * notifications"). `{name}` placeholders are filled by `say`.
 */
import { AGENT_LANGUAGES, type AgentLanguage } from '../../../../protocol/agent.js';
import { fill } from '../visitorTexts.js';
import { ar } from './ar.js';
import { de } from './de.js';
import { en, type AgentTexts } from './en.js';
import { es } from './es.js';
import { fr } from './fr.js';
import { pt } from './pt.js';
import { ru } from './ru.js';
import { tr } from './tr.js';
import { uk } from './uk.js';

export type { AgentTexts };
export type TextKey = keyof AgentTexts;

export const AGENT_TEXTS: Record<AgentLanguage, AgentTexts> = { en, ru, es, de, fr, pt, tr, uk, ar };

/** A language the server writes in, from an agent's `language` (or anything else): English unless it is one of AGENT_LANGUAGES. */
export function textLanguage(raw: unknown): AgentLanguage {
  return AGENT_LANGUAGES.find((l) => l === raw) ?? 'en';
}

/** The text `key` in `lang`, its `{name}`s filled from `values`. */
export function say(lang: string | null | undefined, key: TextKey, values: Record<string, string | number> = {}): string {
  const strings = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, String(v)]));
  return fill(AGENT_TEXTS[textLanguage(lang)][key], strings);
}
