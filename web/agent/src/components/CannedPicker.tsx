/**
 * The composer's `/` shortcut: typing `/` at the start of the message or
 * after a space opens a list of the account's canned responses filtered by
 * what follows; ↑/↓ move, Enter or Tab inserts the text in place of
 * `/query`, Escape closes. The list is an ARIA listbox driven from the
 * textbox (aria-controls + aria-activedescendant), so focus stays in the
 * textbox and screen readers follow the active option.
 */
import { useEffect, useId, useState, type KeyboardEvent, type ReactNode, type RefObject, type SyntheticEvent } from 'react';
import { insertCanned, loadCannedResponses, matchCanned, slashQueryAt } from '../canned';
import { t, tn } from '../i18n';
import type { CannedResponseDto } from '../../../../protocol/agent';

export interface CannedPicker {
  /** Handles the key when the list is open; true = handled (the composer must not act on it). */
  onKeyDown: (e: KeyboardEvent<HTMLTextAreaElement>) => boolean;
  /** Caret moves (typing, clicks, arrows) decide whether a `/query` is being typed. */
  track: (e: SyntheticEvent<HTMLTextAreaElement>) => void;
  textboxProps: { 'aria-autocomplete': 'list'; 'aria-controls'?: string; 'aria-activedescendant'?: string; 'aria-describedby'?: string };
  list: ReactNode;
}

export function useCannedPicker(textarea: RefObject<HTMLTextAreaElement | null>, text: string, onText: (text: string) => void): CannedPicker {
  const listId = useId();
  const [all, setAll] = useState<CannedResponseDto[] | null>(null);
  const [caret, setCaret] = useState(0);
  const [dismissed, setDismissed] = useState<number | null>(null);
  const [active, setActive] = useState(0);

  const at = slashQueryAt(text, caret);
  const typingSlash = at !== null;
  useEffect(() => {
    if (typingSlash && all === null) loadCannedResponses().then(setAll, () => setAll([]));
  }, [typingSlash, all]);
  // A new query starts at the first option; leaving the `/query` forgets an Escape.
  const queryKey = at ? `${at.start}:${at.query}` : null;
  useEffect(() => {
    setActive(0);
    if (queryKey === null) setDismissed(null);
  }, [queryKey]);

  const matches = at && all && dismissed !== at.start ? matchCanned(all, at.query) : [];
  const open = matches.length > 0;
  const optionId = (i: number) => `${listId}-option-${i}`;

  const activeId = open ? optionId(Math.min(active, matches.length - 1)) : null;
  useEffect(() => {
    if (activeId) document.getElementById(activeId)?.scrollIntoView({ block: 'nearest' });
  }, [activeId]);

  const choose = (response: CannedResponseDto) => {
    if (!at) return;
    const next = insertCanned(text, at, response);
    onText(next.text);
    setCaret(next.caret);
    window.requestAnimationFrame(() => {
      const el = textarea.current;
      if (!el) return;
      el.focus();
      el.setSelectionRange(next.caret, next.caret);
    });
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!open || !at || e.nativeEvent.isComposing) return false;
    const n = matches.length;
    if (e.key === 'ArrowDown') setActive((i) => (i + 1) % n);
    else if (e.key === 'ArrowUp') setActive((i) => (i - 1 + n) % n);
    else if ((e.key === 'Enter' && !e.shiftKey) || e.key === 'Tab') choose(matches[Math.min(active, n - 1)]);
    else if (e.key === 'Escape') setDismissed(at.start);
    else return false;
    e.preventDefault();
    return true;
  };

  const track = (e: SyntheticEvent<HTMLTextAreaElement>) => setCaret(e.currentTarget.selectionStart ?? e.currentTarget.value.length);

  const list = open ? (
    <div className="canned-picker">
      <ul role="listbox" id={listId} aria-label={t('workspace.canned.label')} className="canned-list">
        {matches.map((c, i) => (
          <li
            key={c.id}
            id={optionId(i)}
            role="option"
            aria-selected={i === active}
            className={i === active ? 'active' : undefined}
            onMouseDown={(e) => e.preventDefault()}
            onMouseEnter={() => setActive(i)}
            onClick={() => choose(c)}
          >
            <span className="canned-shortcut">/{c.shortcut}</span> <span className="canned-title">{c.title}</span>
            <span className="canned-text">{c.text}</span>
          </li>
        ))}
      </ul>
      <p id={`${listId}-hint`} className="sr-only" aria-live="polite">
        {tn('workspace.canned.hint', matches.length)}
      </p>
    </div>
  ) : null;

  return {
    onKeyDown,
    track,
    textboxProps: {
      'aria-autocomplete': 'list',
      ...(activeId ? { 'aria-controls': listId, 'aria-activedescendant': activeId, 'aria-describedby': `${listId}-hint` } : {}),
    },
    list,
  };
}
