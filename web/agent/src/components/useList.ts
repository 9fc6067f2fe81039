/**
 * Loads a list from the API and keeps it: items, error, whether the endpoint
 * exists on this server (screens degrade gracefully while one is missing),
 * reload, and an upsert for items that arrive live. An item that arrives live
 * while the list is loading is applied again on top of the loaded list: the
 * answer may have been read before that item was written.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
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
  // Items upserted while a load is on its way; null while no load is.
  const arrivedWhileLoading = useRef<T[] | null>([]);

  useEffect(() => {
    let cancelled = false;
    setLoading(true);
    arrivedWhileLoading.current = [];
    load().then(
      (list) => {
        if (cancelled) return;
        const arrived = arrivedWhileLoading.current ?? [];
        arrivedWhileLoading.current = null;
        setItems(arrived.reduce(upsertInto, Array.isArray(list) ? list : []));
        setError(null);
        setMissing(false);
        setLoading(false);
      },
      (err: unknown) => {
        if (cancelled) return;
        arrivedWhileLoading.current = null;
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
    arrivedWhileLoading.current?.push(item);
    setItems((list) => upsertInto(list, item));
  }, []);
  return { items, loading, error, missing, reload, upsert, setItems };
}

/** The list with `item` in place of the one with its id, or first when new. */
function upsertInto<T extends { id: number | string }>(list: T[], item: T): T[] {
  return list.some((x) => x.id === item.id) ? list.map((x) => (x.id === item.id ? item : x)) : [item, ...list];
}
