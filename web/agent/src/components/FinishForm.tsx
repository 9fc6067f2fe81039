/** Finish a chat (POST /chats/:id/finish), optionally blacklisting the visitor. */
import { useState, type FormEvent } from 'react';
import { api, errorText } from '../api';
import { useInbox, useNotices } from '../context';
import { t } from '../i18n';
import type { ChatDto } from '../../../../protocol/agent';

export function FinishForm({ chat, onDone }: { chat: ChatDto; onDone: () => void }) {
  const { dispatch } = useInbox();
  const { announce } = useNotices();
  const [blacklist, setBlacklist] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      dispatch({ type: 'chat', chat: await api.finish(chat.id, blacklist) });
      announce(t('workspace.finish.done'));
      onDone();
    } catch (err) {
      setError(errorText(err));
      setBusy(false);
    }
  };
  return (
    <form className="finish-form" onSubmit={submit} aria-label={t('workspace.finish.title')}>
      <label className="check">
        <input type="checkbox" name="blacklist" checked={blacklist} onChange={(e) => setBlacklist(e.target.checked)} />
        {t('workspace.finish.blacklist')}
      </label>
      <div className="row">
        <button type="submit" className="danger" disabled={busy}>
          {t('workspace.finish.submit')}
        </button>
        <button type="button" onClick={onDone}>
          {t('common.cancel')}
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
