/**
 * The small public page a transcript confirmation link opens
 * (routes/widget/transcriptConfirm.ts), in the widget's language: the
 * question with a button (a form POST to the same address: only a person's
 * press sends the mail, not a scanner fetching the link), what happened, or
 * why the link no longer works. Every value is HTML-escaped; the page loads
 * nothing and runs no script.
 */
import { escapeHtml } from '../mail/compose.js';
import { fill, visitorLanguage, visitorTexts } from '../mail/templates/visitorTexts.js';

export type TranscriptPageState = { kind: 'ask' | 'sent'; email: string; accountName: string } | { kind: 'invalid' | 'expired' };

/** The page's Content-Security-Policy: nothing loaded, inline style only, the form posts to this origin. */
export const TRANSCRIPT_PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

export function transcriptPage(state: TranscriptPageState, lang: string): string {
  const l = visitorLanguage(lang);
  const say = visitorTexts(l);
  const title =
    state.kind === 'ask' || state.kind === 'sent'
      ? fill(say.pageTitle, { account: state.accountName })
      : say.pageTitle.replace(/\s*\{account\}\s*/, ' ').trim();
  let body: string;
  if (state.kind === 'ask') {
    body = `<p>${escapeHtml(fill(say.pageAsk, { email: state.email }))}</p><form method="post"><button type="submit">${escapeHtml(say.pageButton)}</button></form>`;
  } else if (state.kind === 'sent') {
    body = `<p role="status">${escapeHtml(fill(say.pageSent, { email: state.email }))}</p>`;
  } else {
    body = `<p role="alert">${escapeHtml(state.kind === 'expired' ? say.pageExpired : say.pageInvalid)}</p>`;
  }
  return [
    `<!doctype html><html lang="${l}" dir="${l === 'ar' ? 'rtl' : 'ltr'}"><head><meta charset="utf-8">`,
    '<meta name="viewport" content="width=device-width,initial-scale=1"><meta name="referrer" content="no-referrer">',
    `<title>${escapeHtml(title)}</title>`,
    '<style>body{font-family:system-ui,-apple-system,Segoe UI,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;line-height:1.5;color:#111}',
    'button{font:inherit;padding:.5rem 1rem;border:0;border-radius:4px;background:#2563eb;color:#fff;cursor:pointer}</style></head>',
    `<body><h1 style="font-size:1.25rem">${escapeHtml(title)}</h1>${body}</body></html>`,
  ].join('\n');
}
