/**
 * Loads a list from the API and keeps it: items, error, whether the endpoint
 * exists on this server (screens degrade gracefully while one is missing),
 * reload, and an upsert for items that arrive live.
 */
import { useCallback, useEffect, useState } from 'react';
import { errorText, isMissingRoute } from '../api';

export interface ListState<T> {
  items: T[];
  loading: boolean;
  error: string | null;
  missing: boolean;
  reload: () => void;
  upsert: (item: T) => void;
  setItems: (update: (items: T[]) => T[]) => void;
}

export function useList<T extends { id: number | string }>(load: () => Promise<T[]>): ListState<T> {
  const [items, setItems] = useState<T[]>([]);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [missing, setMissing] = useState(false);
  const [round, setRound] = useState(0);

  useEffect(() => {
    let cancelled = false;
    setLoading(true);
    load().then(
      (list) => {
        if (cancelled) return;
        setItems(Array.isArray(list) ? list : []);
        setError(null);
        setMissing(false);
        setLoading(false);
      },
      (err: unknown) => {
        if (cancelled) return;
        setMissing(isMissingRoute(err));
        setError(errorText(err));
        setLoading(false);
      },
    );
    return () => {
      cancelled = true;
    };
    // `load` is a fresh closure every render; `round` says when to run again.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- on purpose: see the line above
  }, [round]);

  const reload = useCallback(() => setRound((r) => r + 1), []);
  const upsert = useCallback((item: T) => {
    setItems((list) => (list.some((x) => x.id === item.id) ? list.map((x) => (x.id === item.id ? item : x)) : [item, ...list]));
  }, []);
  return { items, loading, error, missing, reload, upsert, setItems };
}
