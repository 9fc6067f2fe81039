/**
 * The frame of the pages seen before the app (sign-in, forgotten password,
 * first run, a one-time password): a card in the middle of the page with its
 * heading, the fields, the result of the saver (a status when it worked, an
 * alert that says what to do when not) right above the button, which says
 * when it is busy.
 */
import type { FormEvent, ReactNode } from 'react';
import type { Saver } from '../hooks/useSaver';
import { ErrorText } from './admin/ErrorText';

export function AuthForm({
  id,
  title,
  intro,
  className = '',
  saver,
  onSubmit,
  submit,
  busy,
  children,
  after,
}: {
  /** The heading's id, which names the form. */
  id: string;
  title: string;
  intro?: string;
  className?: string;
  saver: Pick<Saver, 'saved' | 'error' | 'busy'>;
  onSubmit: (e: FormEvent) => void;
  /** The button, and what it says while the saver runs. */
  submit: string;
  busy: string;
  children: ReactNode;
  /** Below the button: a way back, signing out. */
  after?: ReactNode;
}) {
  return (
    <main className="center-page">
      <form className={`card login ${className}`.trim()} onSubmit={onSubmit} aria-labelledby={id}>
        <h1 id={id}>{title}</h1>
        {intro && <p className="muted">{intro}</p>}
        {children}
        {saver.saved && (
          <p className="saved" role="status">
            {saver.saved}
          </p>
        )}
        <ErrorText error={saver.error} />
        <button type="submit" className="primary" disabled={saver.busy}>
          {saver.busy ? busy : submit}
        </button>
        {after}
      </form>
    </main>
  );
}
