/**
 * Loads a list from the API and keeps it: items, error, reload, and an
 * upsert for items that arrive live (useLiveList feeds it the stream's). An item that arrives live
 * while the list is loading is applied again on top of the loaded list: the
 * answer may have been read before that item was written.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { errorText } from '../api';
import { useInbox, useOnResync, type LiveItemOf } from '../context';
import type { LiveList } from '../frames';

export interface ListState<T> {
  items: T[];
  loading: boolean;
  error: string | null;
  reload: () => void;
  upsert: (item: T) => void;
  setItems: (update: (items: T[]) => T[]) => void;
}

export function useList<T extends { id: number | string }>(load: () => Promise<T[]>): ListState<T> {
  const [items, setItems] = useState<T[]>([]);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
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
        setLoading(false);
      },
      (err: unknown) => {
        if (cancelled) return;
        arrivedWhileLoading.current = null;
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
  return { items, loading, error, reload, upsert, setItems };
}

/** The list with `item` in place of the one with its id, or first when new. */
function upsertInto<T extends { id: number | string }>(list: T[], item: T): T[] {
  return list.some((x) => x.id === item.id) ? list.map((x) => (x.id === item.id ? item : x)) : [item, ...list];
}

/**
 * A list the stream keeps live (calls, offline messages): loaded from the API,
 * every item frames bring (frames.ts: the `live` effect) put in place, and
 * loaded again after a stream reset.
 */
export function useLiveList<K extends LiveList>(list: K, load: () => Promise<Array<LiveItemOf<K>>>): ListState<LiveItemOf<K>> {
  const state = useList<LiveItemOf<K>>(load);
  const { subscribeLive } = useInbox();
  const { upsert, reload } = state;
  useEffect(() => subscribeLive(list, upsert), [subscribeLive, list, upsert]);
  useOnResync(reload);
  return state;
}
