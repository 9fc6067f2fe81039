/**
 * Bind the visitor to the CRM card (POST /chats/:id/assign), offered when the chat_accepted
 * answer enabled it, to the agent who holds the chat and administrators (chatRights.ts).
 */
import { useState } from 'react';
import { api, errorText } from '../api';
import { mayActOnChat } from '../chatRights';
import { useSession, useInbox } from '../context';
import { t } from '../i18n';
import type { ChatDto } from '../../../../protocol/agent';

export function AssignButton({ chat }: { chat: ChatDto }) {
  const { me } = useSession();
  const { dispatch } = useInbox();
  const [state, setState] = useState<{ busy: boolean; done: boolean; error: string | null }>({ busy: false, done: false, error: null });
  const assign = async () => {
    setState({ busy: true, done: false, error: null });
    try {
      dispatch({ type: 'chat', chat: await api.assign(chat.id) });
      setState({ busy: false, done: true, error: null });
    } catch (err) {
      setState({ busy: false, done: false, error: errorText(err) });
    }
  };
  if (!mayActOnChat(me, chat)) return null;
  return (
    <div className="assign">
      <button type="button" disabled={state.busy} onClick={() => void assign()}>
        {t('workspace.assign.button')}
      </button>
      <span role="status" className="small">
        {state.done ? t('workspace.assign.done') : ''}
      </span>
      {state.error && (
        <p className="error small" role="alert">
          {state.error}
        </p>
      )}
    </div>
  );
}
