/**
 * The account's departments by id, read once for the chat screens (a chat's
 * header and visitor panel name its department) and again when a name is not
 * known yet (a department made since); agents may read the list.
 */
import { useEffect, useState } from 'react';
import { api } from './api';
import { language, t } from './i18n';

let known: Map<number, string> | null = null;
let loading: Promise<Map<number, string>> | null = null;
/** Ids the list was read again for: a department deleted since is not asked for at every render. */
const askedFor = new Set<number>();

function load(): Promise<Map<number, string>> {
  loading ??= api.departments().then(
    (list) => {
      known = new Map(list.map((d) => [d.id, d.name]));
      loading = null;
      return known;
    },
    (err: unknown) => {
      loading = null;
      throw err;
    },
  );
  return loading;
}

/** The department's name; null while unknown or for none; `Department <id>` when it is gone. */
export function useDepartmentName(id: number | null): string | null {
  const [names, setNames] = useState(known);
  useEffect(() => {
    if (id === null || names?.has(id) || (names && askedFor.has(id))) return;
    if (names) askedFor.add(id);
    let live = true;
    load().then(
      (m) => live && setNames(new Map(m)),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [id, names]);
  if (id === null) return null;
  if (!names) return null;
  return names.get(id) ?? t('workspace.visitor.departmentGone', { id: String(id) });
}

/** The visitor's language as the widget shows it (session.language), named in the app's language: "Arabic (ar)", "Arabisch (ar)"; null when unknown. */
export function languageName(session: Record<string, unknown>): string | null {
  const code = typeof session.language === 'string' && /^[a-z]{2,3}$/.test(session.language) ? session.language : null;
  if (!code) return null;
  let name: string | undefined;
  try {
    name = new Intl.DisplayNames([language()], { type: 'language' }).of(code);
  } catch {
    name = undefined;
  }
  return name && name !== code ? `${name} (${code})` : code;
}
