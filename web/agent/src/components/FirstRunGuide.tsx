/**
 * The first-run guide (GET /api/v1/me/guide): on a new install, an admin sees
 * what to do next (add a widget or chat channel, put the snippet on the site,
 * go Online), each step ticked from the server's state whoever did it, and
 * the guide goes away once every step is done, or for good when dismissed
 * (POST /me/guide/dismiss, per agent). Read again when the page or the
 * agent's status changes, and every few seconds while it shows.
 */
import { useCallback, useEffect, useState } from 'react';
import { api, errorText } from '../api';
import { useSession, useNotices } from '../context';
import { t, tn } from '../i18n';
import type { TextKey } from '../i18n/en';
import { Link, usePath } from '../router';
import type { GuideDto } from '../../../../protocol/agent';

const REFRESH_MS = 10_000;

const STEPS: Record<GuideDto['steps'][number]['id'], { title: TextKey; todo: TextKey; done: TextKey }> = {
  channel: { title: 'pages.guide.channelTitle', todo: 'pages.guide.channelTodo', done: 'pages.guide.channelDone' },
  snippet: { title: 'pages.guide.snippetTitle', todo: 'pages.guide.snippetTodo', done: 'pages.guide.snippetDone' },
  online: { title: 'pages.guide.goOnline', todo: 'pages.guide.onlineTodo', done: 'pages.guide.onlineDone' },
};

export function FirstRunGuide() {
  const { me, setMe } = useSession();
  const { toast } = useNotices();
  const path = usePath();
  const [guide, setGuide] = useState<GuideDto | null>(null);

  const load = useCallback(() => {
    api.guide().then(setGuide, () => {});
  }, []);

  useEffect(() => {
    if (me.role !== 'admin') return;
    load();
  }, [me.role, me.status, path, load]);

  const showing = guide?.show === true;
  useEffect(() => {
    if (!showing) return;
    const timer = window.setInterval(load, REFRESH_MS);
    return () => window.clearInterval(timer);
  }, [showing, load]);

  if (!guide?.show) return null;
  const left = guide.steps.filter((s) => !s.done).length;

  return (
    <section className="guide" aria-labelledby="guide-title">
      <div className="row">
        <h2 id="guide-title" className="grow">
          {tn('pages.guide.left', left)}
        </h2>
        <button
          type="button"
          className="link"
          onClick={() =>
            void api.dismissGuide().then(
              () => setGuide({ ...guide, dismissed: true, show: false }),
              (err: unknown) => toast(t('pages.guide.hideFailed', { error: errorText(err) })),
            )
          }
        >
          {t('pages.guide.hide')}
        </button>
      </div>
      <ol className="guide-steps">
        {guide.steps.map((step) => {
          const words = STEPS[step.id];
          return (
            <li key={step.id} className={step.done ? 'done' : ''} data-step={step.id} data-done={step.done}>
              <span className="tick" aria-hidden="true">
                {step.done ? '✓' : '○'}
              </span>
              <span>
                <strong>{t(words.title)}</strong>
                <span className="sr-only">{step.done ? ` ${t('pages.guide.done')}` : ` ${t('pages.guide.todo')}`}</span>
                <br />
                <span className="muted small">{step.done ? t(words.done) : t(words.todo)}</span>{' '}
                {!step.done && step.id !== 'online' && (
                  <Link href="/admin/channels">{step.id === 'channel' ? t('pages.guide.setUpWidget') : t('pages.guide.findSnippet')}</Link>
                )}
                {!step.done && step.id === 'online' && (
                  <button
                    type="button"
                    className="primary"
                    onClick={() => void api.setStatus('online').then(setMe, (err: unknown) => toast(t('pages.guide.statusFailed', { error: errorText(err) })))}
                  >
                    {t('pages.guide.goOnline')}
                  </button>
                )}
              </span>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
