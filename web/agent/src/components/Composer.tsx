/**
 * Writing to the visitor (POST /chats/:id/messages) or a private note
 * (internal: true: shown to agents, never sent). Typing is reported to the
 * visitor (POST /chats/:id/typing) when it starts and when it stops, never per
 * key press (each report is a request to the customer's system). Typing `/`
 * offers the account's canned responses (CannedPicker). In a chat another
 * agent holds (notesOnly) only private notes can be added: the server refuses
 * the rest (chatRights.ts). A reply may carry a file (Attach file): it is
 * uploaded first (POST /chats/:id/uploads), then sent as the spec's media
 * message with the text as its caption.
 */
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { api, errorText } from '../api';
import { MESSAGE_LIMIT } from '../canned';
import { useInbox } from '../context';
import { fileSize } from '../format';
import { formatNumber, t } from '../i18n';
import type { ChatDto } from '../../../../protocol/agent';
import { WIDGET_UPLOAD_MAX_BYTES } from '../../../../protocol/widget';
import { useCannedPicker } from './CannedPicker';

const TYPING_IDLE_MS = 4000;

export function Composer({ chat, notesOnly = false }: { chat: ChatDto; notesOnly?: boolean }) {
  const { dispatch } = useInbox();
  const [text, setText] = useState('');
  const [noteChosen, setNote] = useState(false);
  const note = noteChosen || notesOnly;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  /** The name of a file refused as too large: its sentence is said at render, in the agent's language. */
  const [tooLarge, setTooLarge] = useState<string | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
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
    const attached = note ? null : file;
    if ((!body && !attached) || busy || tooLong) return;
    setBusy(true);
    setError(null);
    setTooLarge(null);
    // Cleared at once, not when the answer comes: what the agent types meanwhile is the next message.
    if (!attached) setText('');
    try {
      let message;
      if (attached) {
        const up = await api.uploadFile(chat.id, attached);
        message = await api.send(chat.id, { type: up.type, file: up.file, file_name: up.file_name, file_size: up.file_size, ...(body ? { text: body } : {}) });
        setFile(null);
      } else {
        message = await api.send(chat.id, { type: 'text', text: body, ...(note ? { internal: true } : {}) });
      }
      dispatch({ type: 'message', message, unread: false });
      if (attached) setText('');
      if (!note) setTyping(false);
    } catch (err) {
      setError(errorText(err));
      // Not sent: the text comes back, unless the agent has started another one meanwhile.
      if (!attached) setText((current) => (current === '' ? body : current));
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
    <form className={`composer${note ? ' composer-note' : ''}`} onSubmit={submit} aria-label={t('workspace.composer.label')}>
      <label htmlFor={`composer-${chat.id}`} className="sr-only">
        {note ? t('workspace.composer.noteLabel') : t('workspace.composer.messageLabel')}
      </label>
      {picker.list}
      <textarea
        id={`composer-${chat.id}`}
        ref={field}
        name="message"
        rows={3}
        maxLength={MESSAGE_LIMIT}
        value={text}
        placeholder={note ? t('workspace.composer.notePlaceholder') : t('workspace.composer.placeholder')}
        onChange={(e) => {
          change(e.target.value);
          picker.track(e);
        }}
        onSelect={picker.track}
        onKeyDown={onKeyDown}
        {...picker.textboxProps}
        onBlur={() => !note && setTyping(false)}
      />
      {file && !note && (
        <p className="attachment">
          <span className="file-link">{file.name}</span> <span className="muted small">({fileSize(file.size)})</span>
          <button type="button" className="link" onClick={() => setFile(null)} aria-label={t('workspace.composer.removeFile', { name: file.name })}>
            {t('common.remove')}
          </button>
        </p>
      )}
      <div className="composer-bar">
        {!note && (
          <>
            <input
              ref={fileInput}
              id={`attach-${chat.id}`}
              type="file"
              name="file"
              aria-label={t('workspace.composer.fileInput')}
              tabIndex={-1}
              className="sr-only"
              onChange={(e) => {
                const chosen = e.target.files?.[0] ?? null;
                e.target.value = '';
                if (chosen && chosen.size > WIDGET_UPLOAD_MAX_BYTES) {
                  setError(null);
                  setTooLarge(chosen.name);
                  return;
                }
                setError(null);
                setTooLarge(null);
                setFile(chosen);
              }}
            />
            <button type="button" className="attach" onClick={() => fileInput.current?.click()}>
              {t('workspace.composer.attach')}
            </button>
          </>
        )}
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
            {t('workspace.composer.privateNote')}
          </label>
        )}
        <span className={tooLong ? 'error small' : 'muted small'}>
          {formatNumber(text.length, { useGrouping: false })}/{formatNumber(MESSAGE_LIMIT, { useGrouping: false })}
          {tooLong && ` ${t('workspace.composer.tooLong')}`}
        </span>
        <button type="submit" className="primary" disabled={busy || (text.trim() === '' && !(file && !note)) || tooLong}>
          {busy && file ? t('workspace.composer.sendingFile') : note ? t('workspace.composer.addNote') : t('workspace.composer.send')}
        </button>
      </div>
      {(error || tooLarge !== null) && (
        <p className="error" role="alert">
          {error ?? t('workspace.composer.tooLarge', { name: tooLarge ?? '' })}
        </p>
      )}
    </form>
  );
}
