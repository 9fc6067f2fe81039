/**
 * The conversation's title bar: back link (phone width), visitor (its name
 * isolated: <bdi>), state, the chat's department and the visitor's language,
 * the visitor's rating, Reply, Transfer or Finish (the latter two for the
 * holder and admins).
 */
import { useState } from 'react';
import { useSession, useAgents } from '../context';
import { mayActOnChat } from '../chatRights';
import { useDepartmentName, languageName } from '../departments';
import { chatTitle } from '../format';
import { dir, t } from '../i18n';
import { Link } from '../router';
import type { ChatDto } from '../../../../protocol/agent';
import { FinishForm } from './FinishForm';
import { Phrase } from './Phrase';
import { RatingBadge } from './RatingBadge';
import { ReplyButton } from './ReplyButton';
import { TransferMenu } from './TransferMenu';

const STATE = { pending: 'workspace.state.pending', active: 'workspace.state.active', finished: 'workspace.state.finished' } as const;

export function ConversationHeader({ chat }: { chat: ChatDto }) {
  const { me } = useSession();
  const { agents } = useAgents();
  const mine = mayActOnChat(me, chat);
  const [finishing, setFinishing] = useState(false);
  const owner = chat.accepted_by !== null ? agents[chat.accepted_by]?.name : undefined;
  const department = useDepartmentName(chat.department_id);
  const language = languageName(chat.visitor.session);
  return (
    <header className="conversation-header">
      <Link href="/" className="back">
        {/* Back points to where the lists are: the left, or the right when the page runs right to left. */}
        <span aria-hidden="true">{dir() === 'rtl' ? '→' : '←'}</span> {t('workspace.inbox.title')}
      </Link>
      <div className="who">
        <h2 id="conversation-title">
          <bdi>{chatTitle(chat)}</bdi>
        </h2>
        <p className="muted small">
          <span className={`pill pill-${chat.status}`}>{t(STATE[chat.status])}</span>
          {owner && (
            <>
              {' '}
              · <Phrase text={t('workspace.header.with')} parts={{ name: <bdi>{owner}</bdi> }} />
            </>
          )}
          {department && (
            <span className="chat-department" title={t('workspace.header.department')}>
              {' '}
              · <bdi>{department}</bdi>
            </span>
          )}
          {language && (
            <span className="chat-language" title={t('workspace.header.language')}>
              {' '}
              · {language}
            </span>
          )}
          {chat.blacklisted && <> · {t('workspace.header.blacklisted')}</>}
          {chat.rate && (
            <>
              {' '}
              <RatingBadge rate={chat.rate} />
            </>
          )}
        </p>
      </div>
      <div className="actions">
        {chat.status === 'pending' && <ReplyButton chat={chat} />}
        <TransferMenu key={chat.accepted_by ?? 0} chat={chat} />
        {chat.status === 'active' && mine && !finishing && (
          <button type="button" onClick={() => setFinishing(true)}>
            {t('workspace.header.finish')}
          </button>
        )}
      </div>
      {finishing && chat.status === 'active' && <FinishForm chat={chat} onDone={() => setFinishing(false)} />}
    </header>
  );
}
