/** Finish a chat (POST /chats/:id/finish), optionally blacklisting the visitor. */
import { useState, type FormEvent } from 'react';
import { api } from '../api';
import { useInbox, useNotices } from '../context';
import { t } from '../i18n';
import { useSaver } from '../hooks/useSaver';
import type { ChatDto } from '../../../../protocol/agent';
import { ErrorText } from './admin/ErrorText';

export function FinishForm({ chat, onDone }: { chat: ChatDto; onDone: () => void }) {
  const { dispatch } = useInbox();
  const { announce } = useNotices();
  const [blacklist, setBlacklist] = useState(false);
  const saver = useSaver();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void saver.run(async () => {
      dispatch({ type: 'chat', chat: await api.finish(chat.id, blacklist) });
      announce(t('workspace.finish.done'));
      onDone();
    });
  };
  return (
    <form className="finish-form" onSubmit={submit} aria-label={t('workspace.finish.title')}>
      <label className="check">
        <input type="checkbox" name="blacklist" checked={blacklist} onChange={(e) => setBlacklist(e.target.checked)} />
        {t('workspace.finish.blacklist')}
      </label>
      <div className="row">
        <button type="submit" className="danger" disabled={saver.busy}>
          {t('workspace.finish.submit')}
        </button>
        <button type="button" onClick={onDone}>
          {t('common.cancel')}
        </button>
      </div>
      <ErrorText error={saver.error} />
    </form>
  );
}
