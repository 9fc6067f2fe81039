/**
 * Links in a message's text, for the agent app (MessageBody) and the HTML
 * transcript mails (server/mail/compose.ts): the text cut into parts, a part
 * with `href` being a link. Only `http://`, `https://` and `mailto:` written
 * out in the text become links; anything else (`javascript:`, `data:`, a bare
 * `www.`) stays text. The href is the URL as the WHATWG parser writes it
 * (an international host in punycode, so what is opened is what is checked);
 * the part's text is what the visitor wrote. Punctuation ending a sentence
 * after a link and a closing bracket the link did not open are left out of it.
 * Callers build elements from the parts (or escape both), never HTML from text.
 */

export interface TextPart {
  text: string;
  /** Set on a link: an http(s) or mailto URL, never anything else. */
  href?: string;
}

/** A URL longer than this stays text. */
const MAX_URL = 2048;

// A scheme at a word's start (not inside "xhttps://"), then everything up to white space or a character no URL holds unescaped.
const CANDIDATE = /(?<![\p{L}\p{N}_])(?:https?:\/\/(?!\/)|mailto:)[^\s<>"`\p{Cc}]+/giu;
const TRAILING = /[.,;:!?'"»…。、]$/u;
const PAIRS: Record<string, string> = { ')': '(', ']': '[', '}': '{' };

const count = (s: string, c: string): number => s.split(c).length - 1;

/** Leaves out what ends a sentence after the link and a closing bracket it did not open ("(see https://x.org/a)."). */
function trimEnd(raw: string): string {
  let s = raw;
  for (;;) {
    const last = s.at(-1) ?? '';
    if (TRAILING.test(last)) {
      s = s.slice(0, -1);
      continue;
    }
    const open = PAIRS[last];
    if (open && count(s, last) > count(s, open)) {
      s = s.slice(0, -1);
      continue;
    }
    return s;
  }
}

/** The href of a candidate, or null when it is no URL a link may carry. */
function hrefOf(candidate: string): string | null {
  if (candidate.length > MAX_URL) return null;
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return null;
  }
  if (url.protocol === 'http:' || url.protocol === 'https:') return url.hostname ? url.href : null;
  if (url.protocol === 'mailto:') return /^[^@\s/?#]+@[^@\s/?#]+\.[^@\s/?#]+/u.test(decodeURIComponentSafe(url.pathname)) ? url.href : null;
  return null;
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** The text cut into plain parts and links, in order; joined, the parts' texts are the text. */
export function splitLinks(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let at = 0;
  for (const m of text.matchAll(CANDIDATE)) {
    const start = m.index;
    const candidate = trimEnd(m[0]);
    const href = hrefOf(candidate);
    if (!href || candidate.length === 0) continue;
    if (start > at) parts.push({ text: text.slice(at, start) });
    parts.push({ text: candidate, href });
    at = start + candidate.length;
  }
  if (at < text.length || parts.length === 0) parts.push({ text: text.slice(at) });
  return parts;
}

/** Text holding a right-to-left letter (Hebrew, Arabic, Syriac, Thaana, N'Ko …), for isolating it in plain text. */
export const hasRtl = (text: string): boolean => /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc\u{10800}-\u{10fff}\u{1e800}-\u{1efff}]/u.test(text);
