/**
 * One thing an admin page reads (the upload usage, the system's state), read
 * again on Refresh: what was read, and why it could not be, in the page's own
 * sentence around the error.
 */
import { useCallback, useEffect, useState } from 'react';
import { errorText } from '../../api';
import { t } from '../../i18n';
import type { TextKey } from '../../i18n/en';

export function useLoaded<T>(read: () => Promise<T>, readError: TextKey) {
  const [value, setValue] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(() => {
    read().then(
      (v) => {
        setValue(v);
        setError(null);
      },
      (err: unknown) => setError(t(readError, { error: errorText(err) })),
    );
    // `read` is a fresh closure every render; the page reads again on Refresh.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- on purpose: see the line above
  }, [readError]);
  useEffect(load, [load]);
  return { value, error, setError, load };
}
