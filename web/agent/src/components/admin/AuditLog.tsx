/**
 * Admin: the audit log (GET /api/v1/audit), newest first: who did what and
 * when, to what, from which address — exports, erasures, settings, channels,
 * agents, password resets, sign-in throttle clears (docs/DATA.md "Audit log").
 */
import { useState } from 'react';
import { api, errorText } from '../../api';
import { dateTime } from '../../format';
import type { AuditEntry } from '../../types';
import { useList } from '../useList';
import { ErrorText } from './ErrorText';

const PAGE = 50;

/** What each action is, in the reader's words. */
const ACTIONS: Record<string, string> = {
  'data.exported': 'Downloaded all data',
  'visitor.exported': "Exported a visitor's data",
  'visitor.erased': 'Erased a visitor',
  'visitor.files_freed': "Deleted a visitor's files",
  'chat.files_freed': "Deleted a chat's files",
  'settings.updated': 'Changed the settings',
  'settings.webhook_secret_rotated': 'Replaced the webhook secret',
  'settings.webhooks_resumed': 'Resumed the event webhooks',
  'routing.updated': 'Changed the assignment of chats',
  'channel.created': 'Added a channel',
  'channel.updated': 'Changed a channel',
  'channel.deleted': 'Deleted a channel',
  'agent.created': 'Added an agent',
  'agent.updated': 'Changed an agent',
  'agent.invited': 'Sent an invitation',
  'agent.password_reset': "Reset an agent's password",
  'agent.password_changed': 'Changed their own password',
  'department.created': 'Added a department',
  'department.updated': 'Changed a department',
  'department.deleted': 'Deleted a department',
  'department.agents_changed': "Changed a department's agents",
  'department.hours_changed': "Changed a department's working hours",
  'password.reset_requested': 'Asked for a password reset link',
  'password.set_from_link': 'Chose a password from a link',
  'sign_in_throttle.cleared': 'Cleared a sign-in throttle',
  'backup.taken': 'Took a backup',
  'backup.restored': 'Restored a backup',
};

function who(e: AuditEntry): string {
  if (e.agent) return e.agent.name ?? `Agent ${e.agent.id}`;
  return e.action.startsWith('password.') ? 'Someone signed out' : 'The server (command line)';
}

export function AuditLog() {
  const list = useList<AuditEntry>(() => api.audit({ limit: PAGE }));
  const [error, setError] = useState<string | null>(null);
  const [more, setMore] = useState(true);

  const loadMore = async () => {
    const oldest = list.items[list.items.length - 1]?.id;
    try {
      const page = await api.audit({ limit: PAGE, before: oldest });
      list.setItems((all) => [...all, ...page.filter((x) => !all.some((y) => y.id === x.id))]);
      setMore(page.length === PAGE);
    } catch (err) {
      setError(errorText(err));
    }
  };

  return (
    <section className="page" aria-labelledby="audit-title">
      <h1 id="audit-title">Audit log</h1>
      <div className="row">
        <p className="muted grow">
          Who changed the account or took its data, and when: exports, erasures, settings, channels, agents, departments, password resets and sign-in throttle
          clears. Kept for AUDIT_RETENTION_DAYS (a year unless the server sets it).
        </p>
        <button type="button" onClick={list.reload}>
          Refresh
        </button>
      </div>
      <ErrorText error={error ?? list.error} />
      {list.items.length > 0 && (
        <table className="audit">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Who</th>
              <th scope="col">What</th>
              <th scope="col">To what</th>
              <th scope="col">From</th>
            </tr>
          </thead>
          <tbody>
            {list.items.map((e) => (
              <tr key={e.id} data-action={e.action}>
                <td>{dateTime(e.at)}</td>
                <td>{who(e)}</td>
                <td>{ACTIONS[e.action] ?? e.action}</td>
                <td>{e.target ? `${e.target.type.replace(/_/g, ' ')} ${e.target.id}` : '—'}</td>
                <td className="break">{e.address ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {list.items.length === 0 && !list.loading && !list.error && (
        <p className="muted" data-empty="audit">
          Nothing recorded yet. Changes to settings, channels and agents, data exports and erasures will appear here.
        </p>
      )}
      {more && list.items.length >= PAGE && (
        <button type="button" onClick={() => void loadMore()}>
          Load older
        </button>
      )}
    </section>
  );
}
