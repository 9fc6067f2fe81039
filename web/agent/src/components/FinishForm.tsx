/** Finish a chat (POST /chats/:id/finish), optionally blacklisting the visitor. */
import { useState, type FormEvent } from 'react';
import { api, errorText } from '../api';
import { useApp } from '../context';
import type { Chat } from '../types';

export function FinishForm({ chat, onDone }: { chat: Chat; onDone: () => void }) {
  const { dispatch, announce } = useApp();
  const [blacklist, setBlacklist] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      dispatch({ type: 'chat', chat: await api.finish(chat.id, blacklist) });
      announce('Chat finished');
      onDone();
    } catch (err) {
      setError(errorText(err));
      setBusy(false);
    }
  };
  return (
    <form className="finish-form" onSubmit={submit} aria-label="Finish chat">
      <label className="check">
        <input type="checkbox" name="blacklist" checked={blacklist} onChange={(e) => setBlacklist(e.target.checked)} />
        Add the visitor to the blacklist (later messages never reach agents)
      </label>
      <div className="row">
        <button type="submit" className="danger" disabled={busy}>
          Finish
        </button>
        <button type="button" onClick={onDone}>
          Cancel
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
