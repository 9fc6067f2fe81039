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
import { useApp } from '../context';
import { Link, usePath } from '../router';
import type { Guide } from '../types';

const REFRESH_MS = 10_000;

const STEPS: Record<Guide['steps'][number]['id'], { title: string; todo: string; done: string }> = {
  channel: {
    title: 'Add a website widget',
    todo: 'Create a widget (or a chat channel for your own system) under Admin → Channels.',
    done: 'A channel is ready.',
  },
  snippet: {
    title: 'Put the snippet on your site',
    todo: "Copy the widget's install snippet from Admin → Channels into your site's pages; this is ticked when the first visitor arrives.",
    done: 'Visitors are arriving.',
  },
  online: {
    title: 'Go Online',
    todo: 'The widget takes chats while an agent is Online.',
    done: 'You went Online.',
  },
};

export function FirstRunGuide() {
  const { me, setMe, toast } = useApp();
  const path = usePath();
  const [guide, setGuide] = useState<Guide | null>(null);

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
          Get started: {left === 1 ? 'one step' : `${left} steps`} left
        </h2>
        <button
          type="button"
          className="link"
          onClick={() =>
            void api.dismissGuide().then(
              () => setGuide({ ...guide, dismissed: true, show: false }),
              (err: unknown) => toast(`The guide could not be hidden: ${errorText(err)}`),
            )
          }
        >
          Hide this guide
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
                <strong>{words.title}</strong>
                <span className="sr-only">{step.done ? ' (done)' : ' (to do)'}</span>
                <br />
                <span className="muted small">{step.done ? words.done : words.todo}</span>{' '}
                {!step.done && step.id !== 'online' && <Link href="/admin/channels">{step.id === 'channel' ? 'Set up a widget' : 'Find the snippet'}</Link>}
                {!step.done && step.id === 'online' && (
                  <button
                    type="button"
                    className="primary"
                    onClick={() => void api.setStatus('online').then(setMe, (err: unknown) => toast(`Your status did not change: ${errorText(err)}`))}
                  >
                    Go Online
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
