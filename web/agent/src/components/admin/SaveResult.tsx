/**
 * A save's result where the person is looking: beside the button that saved
 * (a polite status when it worked, an alert in the reader's words when it did
 * not). useSaver() runs one save and keeps its result; each form has its own,
 * so a long page never reports at its top.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { errorText } from '../../api';
import { ErrorText } from './ErrorText';

export interface Saver {
  saved: string;
  error: string | null;
  busy: boolean;
  /** Runs `fn`; on success shows `done` (or what it makes of the result), on failure the error in human words. */
  run: <T>(fn: () => Promise<T>, done: string | ((value: T) => string)) => Promise<T | undefined>;
  clear: () => void;
}

export function useSaver(): Saver {
  const [saved, setSaved] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = useCallback(async <T,>(fn: () => Promise<T>, done: string | ((value: T) => string)) => {
    setSaved('');
    setError(null);
    setBusy(true);
    try {
      const value = await fn();
      setSaved(typeof done === 'string' ? done : done(value));
      return value;
    } catch (err) {
      setError(errorText(err));
      return undefined;
    } finally {
      setBusy(false);
    }
  }, []);
  const clear = useCallback(() => {
    setSaved('');
    setError(null);
  }, []);
  return { saved, error, busy, run, clear };
}

/** Put it right after the button, inside the form's actions row (scrolled into view when a result shows: a refusal may wrap below the button). */
export function SaveResult({ saver }: { saver: Pick<Saver, 'saved' | 'error'> }) {
  const status = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    if (saver.saved || saver.error) status.current?.parentElement?.scrollIntoView?.({ block: 'nearest' });
  }, [saver.saved, saver.error]);
  return (
    <>
      <span role="status" className="saved" ref={status}>
        {saver.saved}
      </span>
      <ErrorText error={saver.error} />
    </>
  );
}
