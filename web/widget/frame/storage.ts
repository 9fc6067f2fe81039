/**
 * The frame's storage. localStorage keeps the visitor's identity so a reload or
 * the next page of the site continues the same chat; sessionStorage keeps
 * per-tab things (the window open across pages). A browser that denies storage
 * to third-party frames gets an in-memory copy: the chat then lasts one page.
 */
const memory = new Map<string, string>();

function area(kind: 'local' | 'session'): Storage | null {
  try {
    return kind === 'local' ? window.localStorage : window.sessionStorage;
  } catch {
    return null;
  }
}

export function load(key: string, kind: 'local' | 'session' = 'local'): string | null {
  try {
    const s = area(kind);
    if (s) return s.getItem(key);
  } catch {
    // denied: fall through to memory
  }
  return memory.get(kind + key) ?? null;
}

export function save(key: string, value: string | null, kind: 'local' | 'session' = 'local'): void {
  try {
    const s = area(kind);
    if (s) {
      if (value === null) s.removeItem(key);
      else s.setItem(key, value);
      return;
    }
  } catch {
    // denied or full: fall through to memory
  }
  if (value === null) memory.delete(kind + key);
  else memory.set(kind + key, value);
}
