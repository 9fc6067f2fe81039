/**
 * Writing to the visitor (POST /chats/:id/messages) or a private note
 * (internal: true: shown to agents, never sent). Typing is reported to the
 * visitor (POST /chats/:id/typing) when it starts and when it stops, never per
 * key press (each report is a request to the customer's system). Typing `/`
 * offers the account's canned responses (CannedPicker). In a chat another
 * agent holds (notesOnly) only private notes can be added: the server refuses
 * the rest (chatRights.ts).
 */
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { api, errorText } from '../api';
import { MESSAGE_LIMIT } from '../canned';
import { useApp } from '../context';
import type { Chat } from '../types';
import { useCannedPicker } from './CannedPicker';

const TYPING_IDLE_MS = 4000;

export function Composer({ chat, notesOnly = false }: { chat: Chat; notesOnly?: boolean }) {
  const { dispatch } = useApp();
  const [text, setText] = useState('');
  const [noteChosen, setNote] = useState(false);
  const note = noteChosen || notesOnly;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const typing = useRef(false);
  const idle = useRef<number | undefined>(undefined);
  const field = useRef<HTMLTextAreaElement>(null);

  const setTyping = (on: boolean) => {
    window.clearTimeout(idle.current);
    if (on) idle.current = window.setTimeout(() => setTyping(false), TYPING_IDLE_MS);
    if (typing.current === on) return;
    typing.current = on;
    api.typing(chat.id, on).catch(() => {});
  };

  // Leaving the conversation ends the typing indicator.
  useEffect(
    () => () => {
      window.clearTimeout(idle.current);
      if (typing.current) api.typing(chat.id, false).catch(() => {});
    },
    [chat.id],
  );

  const change = (value: string) => {
    setText(value);
    if (!note) setTyping(value !== '');
  };
  const picker = useCannedPicker(field, text, change);
  const tooLong = text.length > MESSAGE_LIMIT;

  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    const body = text.trim();
    if (!body || busy || tooLong) return;
    setBusy(true);
    setError(null);
    try {
      const message = await api.send(chat.id, { type: 'text', text: body, ...(note ? { internal: true } : {}) });
      dispatch({ type: 'message', message, unread: false });
      setText('');
      if (!note) setTyping(false);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (picker.onKeyDown(e)) return;
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void submit();
    }
  };

  return (
    <form className={`composer${note ? ' composer-note' : ''}`} onSubmit={submit} aria-label="Reply">
      <label htmlFor={`composer-${chat.id}`} className="sr-only">
        {note ? 'Private note (not sent to the visitor)' : 'Message to the visitor'}
      </label>
      {picker.list}
      <textarea
        id={`composer-${chat.id}`}
        ref={field}
        name="message"
        rows={3}
        maxLength={MESSAGE_LIMIT}
        value={text}
        placeholder={note ? 'Private note — only agents see it' : 'Write a reply… (Enter sends, Shift+Enter for a new line, / for canned responses)'}
        onChange={(e) => {
          change(e.target.value);
          picker.track(e);
        }}
        onSelect={picker.track}
        onKeyDown={onKeyDown}
        {...picker.textboxProps}
        onBlur={() => !note && setTyping(false)}
      />
      <div className="composer-bar">
        {!notesOnly && (
          <label className="check">
            <input
              type="checkbox"
              name="internal"
              checked={note}
              onChange={(e) => {
                setNote(e.target.checked);
                if (e.target.checked) setTyping(false);
              }}
            />
            Private note
          </label>
        )}
        <span className={tooLong ? 'error small' : 'muted small'}>
          {text.length}/{MESSAGE_LIMIT}
          {tooLong && ' — too long to send; shorten it'}
        </span>
        <button type="submit" className="primary" disabled={busy || text.trim() === '' || tooLong}>
          {note ? 'Add note' : 'Send'}
        </button>
      </div>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
