/**
 * The visitor's current visit (widget chats), as the server keeps it in the
 * session: how long the visitor has been on the site (ticking while the chat
 * is open; it stops at the visitor's last activity once they have been gone
 * for half an hour), where they came from, and the pages of this visit,
 * newest first, each with the time they got there. It follows every page
 * change live (chat.updated, change page_changed, brings the new session).
 */
import { useEffect, useState } from 'react';
import { isRecord, safeHref, str, time } from '../format';
import { formatNumber, t, tn } from '../i18n';
import { Field } from './Field';

/** As the server's VISIT_GAP_MS: a visitor silent for longer has left. */
const GONE_AFTER_MS = 30 * 60 * 1000;
const SHOWN = 8;

interface Page {
  url: string;
  title: string | null;
  at: number;
}

function pagesOf(session: Record<string, unknown>): Page[] {
  if (!Array.isArray(session.pages)) return [];
  const out: Page[] = [];
  for (const p of session.pages) {
    if (!isRecord(p)) continue;
    const url = safeHref(p.url);
    if (url && typeof p.at === 'number') out.push({ url, title: str(p.title), at: p.at });
  }
  return out.reverse();
}

/** "4 min", "1 h 12 min", "less than a minute". */
export function duration(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return t('workspace.visit.underMinute');
  if (minutes < 60) return t('workspace.visit.minutes', { minutes });
  return t('workspace.visit.hoursMinutes', { hours: Math.floor(minutes / 60), minutes: minutes % 60 });
}

function useNow(everyMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), everyMs);
    return () => window.clearInterval(timer);
  }, [everyMs]);
  return now;
}

export function VisitorVisit({ session }: { session: Record<string, unknown> }) {
  const now = useNow(30_000);
  const [all, setAll] = useState(false);
  const pages = pagesOf(session);
  const started = typeof session.visit_started_at === 'number' ? session.visit_started_at : null;
  const seen = typeof session.last_seen_at === 'number' ? session.last_seen_at : null;
  const gone = seen !== null && now - seen > GONE_AFTER_MS;
  const onSite = started !== null ? duration(Math.max(0, (gone && seen !== null ? seen : now) - started)) : null;
  const referrer = safeHref(session.referrer);
  if (!onSite && !referrer && pages.length === 0) return null;
  const shown = all ? pages : pages.slice(0, SHOWN);
  return (
    <section aria-label={t('workspace.visit.title')}>
      <h4>{t('workspace.visit.title')}</h4>
      <dl className="fields">
        <Field
          label={t('workspace.visit.timeOnSite')}
          value={onSite && (gone ? t('workspace.visit.leftAt', { duration: onSite, time: time(seen ?? 0) }) : onSite)}
        />
        {referrer && (
          <>
            <dt>{t('workspace.visit.cameFrom')}</dt>
            <dd className="break">
              <a href={referrer} target="_blank" rel="noopener noreferrer">
                {referrer}
              </a>
            </dd>
          </>
        )}
      </dl>
      {pages.length > 0 && (
        <>
          <h5>
            {t('workspace.visit.pages')} <span className="muted small">({formatNumber(pages.length)})</span>
          </h5>
          <ol className="visited-pages" aria-label={t('workspace.visit.pages')} reversed start={pages.length}>
            {shown.map((p, i) => (
              <li key={`${p.at}-${i}`}>
                <a className="break" href={p.url} target="_blank" rel="noopener noreferrer">
                  {p.title ?? p.url}
                </a>{' '}
                <time className="muted small" dateTime={new Date(p.at).toISOString()}>
                  {time(p.at)}
                </time>
              </li>
            ))}
          </ol>
          {pages.length > SHOWN && (
            <button type="button" className="link" onClick={() => setAll(!all)}>
              {all ? t('workspace.visit.showFewer') : tn('workspace.visit.showAll', pages.length)}
            </button>
          )}
        </>
      )}
    </section>
  );
}
