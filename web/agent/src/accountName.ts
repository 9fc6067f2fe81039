/**
 * The company's name (GET /api/v1/account) for the header and the window
 * title: read once per session, set again when an administrator saves it in
 * Settings (or on the first sign-in), so every part of the app shows the new
 * name at once. "Parley" stands in while the account has none (the server's
 * shown_name).
 */
import { useEffect, useState } from 'react';
import { api } from './api';

let current: string | null = null;
const listeners = new Set<(name: string) => void>();

/** The name as screens show it ("Parley" while none is set). */
export function setAccountName(stored: string): void {
  current = stored.trim() === '' ? 'Parley' : stored.trim();
  for (const listener of listeners) listener(current);
}

export function useAccountName(): string {
  const [name, setName] = useState(current ?? 'Parley');
  useEffect(() => {
    listeners.add(setName);
    if (current === null) {
      api.account().then(
        (a) => setAccountName(a.name),
        () => undefined,
      );
    } else setName(current);
    return () => {
      listeners.delete(setName);
    };
  }, []);
  return name;
}
