/**
 * How every mail is laid out: one plain-text part and one HTML part built
 * from the same blocks (a heading, paragraphs, label/value rows, quoted text,
 * a button link, a footer), so the two always say the same thing; a
 * transcript alone is rendered the same way for event webhooks (renderTranscript). Every value
 * is HTML-escaped here, as the agent app escapes what it shows; nothing
 * reaches the HTML part unescaped. Links in a transcript's messages
 * (http, https and mailto only: protocol/links.ts) are links in the HTML part.
 * Names and messages are bidi-isolated, so an Arabic line keeps its
 * punctuation where it belongs: `dir="auto"` in HTML, and in plain text a
 * line holding right-to-left letters sits between FSI and PDI. The footer names the account and, for a
 * notification, links to where its addresses are set; it is written in the mail's language
 * (templates/agentTexts/), as "(no messages)" is.
 */
import { hasRtl, splitLinks } from '../../protocol/links.js';
import { singleLine } from '../lib/singleLine.js';
import { say } from './templates/agentTexts/index.js';
import { fill } from './templates/visitorTexts.js';

export type Block =
  | { kind: 'p'; text: string }
  | { kind: 'rows'; rows: Array<[label: string, value: string | null | undefined]> }
  | { kind: 'quote'; text: string }
  | { kind: 'link'; label: string; url: string }
  | { kind: 'transcript'; lines: Array<{ who: string; at: string; text: string }> };

export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

export interface Layout {
  subject: string;
  heading: string;
  blocks: Block[];
  /** The account's name, in the footer. */
  accountName: string;
  /** The language the mail is written in (an agent's: mailLanguages.ts; the visitor's mails: the widget's); its direction and footer are the mail's. English when absent. */
  lang?: string;
  /** A notification's settings link ("why do I get this"), absent for personal mails (invitation, reset, transcript). */
  settingsUrl?: string;
}

/**
 * A row's value in plain text: a name stored before names were kept on one
 * line may still hold a break; its first line stays a line of its own, the
 * rest is indented, so no value can start a line that reads like a label or
 * an agent's ("Acme Support: …").
 */
const oneLineStart = (value: string): string => value.replace(/\r\n|[\r\n\u2028\u2029]/g, '\n  ');

/** Languages mails are written in that read right to left. */
const RTL_LANGUAGES = new Set(['ar']);

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** Line breaks kept, everything else escaped. */
const htmlLines = (value: string): string => escapeHtml(value).replace(/\r?\n/g, '<br>');

/** As htmlLines, with the text's http(s) and mailto URLs as links (escaped; opened in a new tab, no referrer). */
const htmlLinked = (value: string): string =>
  splitLinks(value)
    .map((p) => (p.href ? `<a href="${escapeHtml(p.href)}" target="_blank" rel="noopener noreferrer">${htmlLines(p.text)}</a>` : htmlLines(p.text)))
    .join('');

/** A line of plain text holding right-to-left letters, between FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE: its direction is its own. */
const isolate = (value: string): string =>
  value
    .split(/(\r?\n)/)
    .map((line) => (hasRtl(line) ? `\u2068${line}\u2069` : line))
    .join('');

/** A subject is one header line: no control characters or line breaks (lib/singleLine.ts), at most 200 characters. */
export function subjectLine(value: string): string {
  const one = singleLine(value).trim();
  return one.length > 200 ? `${one.slice(0, 199)}…` : one;
}

function textBlock(b: Block, lang: string): string {
  switch (b.kind) {
    case 'p':
      return b.text;
    case 'rows':
      return b.rows
        .filter(([, v]) => v)
        .map(([l, v]) => `${l}: ${isolate(oneLineStart(v as string))}`)
        .join('\n');
    case 'quote':
      return b.text
        .split(/\r?\n/)
        .map((l) => `> ${isolate(l)}`)
        .join('\n');
    case 'link':
      return `${b.label}: ${b.url}`;
    case 'transcript':
      return b.lines.length === 0 ? say(lang, 'noMessages') : b.lines.map((l) => `[${l.at}] ${isolate(singleLine(l.who))}: ${isolate(l.text)}`).join('\n');
  }
}

function htmlBlock(b: Block, lang: string): string {
  switch (b.kind) {
    case 'p':
      return `<p>${htmlLines(b.text)}</p>`;
    case 'rows': {
      const rows = b.rows
        .filter(([, v]) => v)
        .map(
          ([l, v]) => `<tr><th align="left" style="padding:2px 12px 2px 0;color:#555">${escapeHtml(l)}</th><td dir="auto">${htmlLines(v as string)}</td></tr>`,
        )
        .join('');
      return `<table cellspacing="0" cellpadding="0">${rows}</table>`;
    }
    case 'quote':
      return `<blockquote dir="auto" style="margin:12px 0;padding:8px 12px;border-left:3px solid #ccc;color:#222">${htmlLines(b.text)}</blockquote>`;
    case 'link':
      return `<p><a href="${escapeHtml(b.url)}" style="display:inline-block;padding:8px 14px;background:#2563eb;color:#fff;text-decoration:none;border-radius:4px">${escapeHtml(b.label)}</a></p>`;
    case 'transcript':
      if (b.lines.length === 0) return `<p><em>${escapeHtml(say(lang, 'noMessages'))}</em></p>`;
      return `<table cellspacing="0" cellpadding="0">${b.lines
        .map(
          (l) =>
            `<tr><td style="padding:2px 8px 2px 0;color:#777;white-space:nowrap;vertical-align:top">${escapeHtml(l.at)}</td><th align="left" dir="auto" style="padding:2px 8px 2px 0;vertical-align:top">${escapeHtml(l.who)}</th><td dir="auto">${htmlLinked(l.text)}</td></tr>`,
        )
        .join('')}</table>`;
  }
}

/** A transcript alone, as plain text and as escaped HTML (the same lines mails show; chat_finished's plain_messages and html_messages). */
export function renderTranscript(lines: Array<{ who: string; at: string; text: string }>): { text: string; html: string } {
  if (lines.length === 0) return { text: '', html: '' };
  const block: Block = { kind: 'transcript', lines };
  return { text: textBlock(block, 'en'), html: htmlBlock(block, 'en') };
}

export function renderMail(layout: Layout): MailContent {
  const lang = layout.lang ?? 'en';
  const account = layout.accountName;
  const footerText = layout.settingsUrl ? say(lang, 'footerNotification', { account, url: layout.settingsUrl }) : say(lang, 'footerSent', { account });
  const text = [singleLine(layout.heading), ...layout.blocks.map((b) => textBlock(b, lang)), '--', footerText].join('\n\n') + '\n';
  // The catalogue's text escaped, then the escaped values and the link filled in.
  const footerHtml = layout.settingsUrl
    ? fill(escapeHtml(say(lang, 'footerNotificationHtml')), {
        account: escapeHtml(account),
        link: `<a href="${escapeHtml(layout.settingsUrl)}">${escapeHtml(say(lang, 'footerSettingsLink'))}</a>`,
      })
    : escapeHtml(say(lang, 'footerSent', { account }));
  const html = [
    `<!doctype html><html lang="${escapeHtml(lang)}" dir="${RTL_LANGUAGES.has(lang) ? 'rtl' : 'ltr'}"><head><meta charset="utf-8"></head>`,
    '<body style="font-family:system-ui,-apple-system,Segoe UI,sans-serif;font-size:15px;line-height:1.45;color:#111">',
    `<h1 style="font-size:18px">${escapeHtml(layout.heading)}</h1>`,
    ...layout.blocks.map((b) => htmlBlock(b, lang)),
    `<hr style="border:0;border-top:1px solid #ddd;margin:20px 0"><p style="font-size:12px;color:#666">${footerHtml}</p>`,
    '</body></html>',
  ].join('\n');
  return { subject: subjectLine(layout.subject), text, html };
}
