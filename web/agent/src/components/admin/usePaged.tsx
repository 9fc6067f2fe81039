/**
 * A list read newest first, a page at a time (GET …?limit=&before=): the
 * first page as useList keeps it, then "Load older" adds the next page below,
 * while the last page read was full.
 */
import { useState } from 'react';
import { errorText } from '../../api';
import { t } from '../../i18n';
import { useList, type ListState } from '../useList';

export const PAGE = 50;

export interface Paged<T> {
  list: ListState<T>;
  /** Reading an older page failed. */
  error: string | null;
  loadOlder: () => Promise<void>;
  /** Read again from the newest (a filter changed). */
  restart: () => void;
  more: boolean;
}

export function usePaged<T extends { id: number }>(read: (page: { limit: number; before?: number }) => Promise<T[]>): Paged<T> {
  const list = useList<T>(() => read({ limit: PAGE }));
  const [error, setError] = useState<string | null>(null);
  const [more, setMore] = useState(true);
  const loadOlder = async () => {
    try {
      const page = await read({ limit: PAGE, before: list.items[list.items.length - 1]?.id });
      list.setItems((all) => [...all, ...page.filter((x) => !all.some((y) => y.id === x.id))]);
      setMore(page.length === PAGE);
    } catch (err) {
      setError(errorText(err));
    }
  };
  const restart = () => {
    setMore(true);
    list.reload();
  };
  return { list, error, loadOlder, restart, more: more && list.items.length >= PAGE };
}

export function LoadOlder<T>({ paged }: { paged: Paged<T> }) {
  if (!paged.more) return null;
  return (
    <button type="button" onClick={() => void paged.loadOlder()}>
      {t('admin.loadOlder')}
    </button>
  );
}
