/**
 * One save's state, the same in every form of the app: runs the save, keeps
 * whether it is under way, what it saved (a sentence for a polite status
 * beside the button) and what went wrong (the error in the reader's words,
 * for an alert). Each form has its own, so a long page never reports at its
 * top; components/admin/SaveResult.tsx shows it.
 */
import { useCallback, useState } from 'react';
import { errorText } from '../api';

export interface Saver {
  saved: string;
  error: string | null;
  busy: boolean;
  /**
   * Runs `fn`; on success shows `done` (or what it makes of the result; none
   * when the form goes away on success), on failure the error in human words.
   */
  run: <T>(fn: () => Promise<T>, done?: string | ((value: T) => string)) => Promise<T | undefined>;
  /** A refusal found before sending (two passwords that differ): shown as a failed save is; a function is said again at each render. */
  fail: (message: string | (() => string)) => void;
  clear: () => void;
}

export function useSaver(): Saver {
  // The result and the error as functions, so they are said in the language of the moment they are read.
  const [said, setSaid] = useState<(() => string) | null>(null);
  const [error, setError] = useState<(() => string) | null>(null);
  const [busy, setBusy] = useState(false);
  const run = useCallback(async <T>(fn: () => Promise<T>, done?: string | ((value: T) => string)) => {
    setSaid(null);
    setError(null);
    setBusy(true);
    try {
      const value = await fn();
      setSaid(() => () => (typeof done === 'function' ? done(value) : (done ?? '')));
      return value;
    } catch (err) {
      setError(() => () => errorText(err));
      return undefined;
    } finally {
      setBusy(false);
    }
  }, []);
  const fail = useCallback((message: string | (() => string)) => {
    setSaid(null);
    setError(() => (typeof message === 'function' ? message : () => message));
  }, []);
  const clear = useCallback(() => {
    setSaid(null);
    setError(null);
  }, []);
  return { saved: said?.() ?? '', error: error?.() ?? null, busy, run, fail, clear };
}
