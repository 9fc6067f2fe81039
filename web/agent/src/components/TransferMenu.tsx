/**
 * Transfer a chat to another agent or to a department (POST
 * /chats/:id/transfer): a disclosure in the conversation header listing the
 * other active agents with their status (online first), then the departments
 * (the chat waits there again for their agents). The server decides who may take the chat (an agent
 * of its channel) and answers a sentence when it refuses.
 */
import { useEffect, useState } from 'react';
import { api, errorText } from '../api';
import { mayActOnChat } from '../chatRights';
import { useSession, useInbox, useAgents, useNotices } from '../context';
import { dir, t } from '../i18n';
import { routingApi } from '../routingApi';
import type { AgentDto, ChatDto, DepartmentDto } from '../../../../protocol/agent';

const ORDER = { online: 0, away: 1, offline: 2 } as const;
/**
 * Right to left, the header's buttons sit at the page's left: the panel opens from the button's left edge
 * (styles.css anchors it right, for left-to-right), and its rows read from the right.
 */
const RTL_PANEL = { right: 'auto', left: 0 } as const;
const RTL_ROW = { textAlign: 'right' } as const;

const STATUS = { online: 'workspace.transfer.online', away: 'workspace.transfer.away', offline: 'workspace.transfer.offline' } as const;

/** Who the chat can go to: active agents other than its holder, online first, then by name. */
export function transferTargets(agents: Record<number, AgentDto>, chat: ChatDto): AgentDto[] {
  return Object.values(agents)
    .filter((a) => a.active && a.id !== chat.accepted_by)
    .sort((a, b) => ORDER[a.status] - ORDER[b.status] || a.name.localeCompare(b.name));
}

/** The holder and administrators may move an active chat; anyone who sees a waiting one may (chatRights.ts). */
export function mayTransfer(me: AgentDto, chat: ChatDto): boolean {
  return chat.status !== 'finished' && mayActOnChat(me, chat);
}

export function TransferMenu({ chat }: { chat: ChatDto }) {
  const { me } = useSession();
  const { dispatch } = useInbox();
  const { agents } = useAgents();
  const { announce } = useNotices();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [departments, setDepartments] = useState<DepartmentDto[]>([]);
  useEffect(() => {
    if (open) api.departments().then(setDepartments, () => setDepartments([]));
  }, [open]);
  if (!mayTransfer(me, chat)) return null;
  const targets = transferTargets(agents, chat);
  const panelId = `transfer-${chat.id}`;
  const rtl = dir() === 'rtl';

  const transfer = async (agent: AgentDto) => {
    setBusy(true);
    setError(null);
    try {
      dispatch({ type: 'chat', chat: await api.transfer(chat.id, agent.id) });
      announce(t('workspace.transfer.doneAgent', { name: agent.name }));
      setOpen(false);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  const toDepartment = async (d: DepartmentDto) => {
    setBusy(true);
    setError(null);
    try {
      dispatch({ type: 'chat', chat: await routingApi.transferToDepartment(chat.id, d.id) });
      announce(t('workspace.transfer.doneDepartment', { name: d.name }));
      setOpen(false);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="transfer" onKeyDown={(e) => e.key === 'Escape' && setOpen(false)}>
      <button type="button" aria-expanded={open} aria-controls={panelId} onClick={() => setOpen((o) => !o)}>
        {t('workspace.transfer.button')}
      </button>
      {open && (
        <div id={panelId} className="transfer-panel" style={rtl ? RTL_PANEL : undefined} role="group" aria-label={t('workspace.transfer.panel')}>
          {targets.length === 0 ? (
            <p className="muted small">{t('workspace.transfer.none')}</p>
          ) : (
            <ul className="plain">
              {targets.map((a) => (
                <li key={a.id}>
                  <button
                    type="button"
                    style={rtl ? RTL_ROW : undefined}
                    disabled={busy}
                    onClick={() => void transfer(a)}
                    aria-label={t('workspace.transfer.toAgent', { name: a.name, status: t(STATUS[a.status]) })}
                  >
                    <span className={`dot dot-${a.status}`} aria-hidden="true" /> {a.name} <span className="muted small">{t(STATUS[a.status])}</span>
                  </button>
                </li>
              ))}
            </ul>
          )}
          {departments.length > 0 && (
            <ul className="plain" aria-label={t('workspace.transfer.departments')}>
              {departments.map((d) => (
                <li key={d.id}>
                  <button
                    type="button"
                    style={rtl ? RTL_ROW : undefined}
                    disabled={busy}
                    onClick={() => void toDepartment(d)}
                    aria-label={t('workspace.transfer.toDepartment', { name: d.name })}
                  >
                    {d.name} <span className="muted small">{t('workspace.transfer.department')}</span>
                  </button>
                </li>
              ))}
            </ul>
          )}
          {error && (
            <p className="error small" role="alert">
              {error}
            </p>
          )}
        </div>
      )}
    </div>
  );
}
