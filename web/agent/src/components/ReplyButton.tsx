/** Reply = accept a waiting chat (POST /chats/:id/accept); a 409 means another agent was faster. The offer bar labels it Accept. */
import { useState } from 'react';
import { api, ApiError, errorText } from '../api';
import { useInbox, useNotices } from '../context';
import { chatTitle } from '../format';
import { t } from '../i18n';
import { navigate } from '../router';
import type { ChatDto } from '../../../../protocol/agent';

export function ReplyButton({ chat, className, label }: { chat: ChatDto; className?: string; label?: string }) {
  const { dispatch } = useInbox();
  const { toast } = useNotices();
  const [busy, setBusy] = useState(false);
  const reply = async () => {
    setBusy(true);
    try {
      const accepted = await api.accept(chat.id);
      dispatch({ type: 'chat', chat: accepted });
      navigate(`/chats/${chat.id}`);
    } catch (err) {
      const text = err instanceof ApiError && err.code === 'chat_already_accepted' ? t('workspace.reply.taken') : errorText(err);
      toast(text);
      // Another agent took it: fetch the current state so the lists move it.
      api.chat(chat.id).then(
        (c) => dispatch({ type: 'chat', chat: c }),
        () => {},
      );
    } finally {
      setBusy(false);
    }
  };
  return (
    <button
      type="button"
      className={`primary ${className ?? ''}`}
      disabled={busy}
      onClick={() => void reply()}
      aria-label={label ? undefined : t('workspace.reply.to', { name: chatTitle(chat) })}
    >
      {label ?? t('workspace.reply.button')}
    </button>
  );
}
