/**
 * Admin: the audit log (GET /api/v1/audit), newest first: who did what and
 * when, to what, from which address — exports, erasures, settings, channels,
 * agents, password resets, sign-in throttle clears (docs/DATA.md "Audit log").
 */
import { useState } from 'react';
import { api, errorText } from '../../api';
import { formatDateTime, t } from '../../i18n';
import type { TextKey } from '../../i18n/en';
import type { AuditEntryDto } from '../../../../../protocol/agent';
import { useList } from '../useList';
import { ErrorText } from './ErrorText';

const PAGE = 50;

/** What each action is, in the reader's words. */
const ACTIONS: Record<string, TextKey> = {
  'data.exported': 'admin.audit.action.data.exported',
  'visitor.exported': 'admin.audit.action.visitor.exported',
  'visitor.erased': 'admin.audit.action.visitor.erased',
  'visitor.files_freed': 'admin.audit.action.visitor.files_freed',
  'chat.files_freed': 'admin.audit.action.chat.files_freed',
  'settings.updated': 'admin.audit.action.settings.updated',
  'settings.webhook_secret_rotated': 'admin.audit.action.settings.webhook_secret_rotated',
  'settings.webhooks_resumed': 'admin.audit.action.settings.webhooks_resumed',
  'routing.updated': 'admin.audit.action.routing.updated',
  'channel.created': 'admin.audit.action.channel.created',
  'channel.updated': 'admin.audit.action.channel.updated',
  'channel.deleted': 'admin.audit.action.channel.deleted',
  'agent.created': 'admin.audit.action.agent.created',
  'agent.updated': 'admin.audit.action.agent.updated',
  'agent.invited': 'admin.audit.action.agent.invited',
  'agent.password_reset': 'admin.audit.action.agent.password_reset',
  'agent.password_changed': 'admin.audit.action.agent.password_changed',
  'department.created': 'admin.audit.action.department.created',
  'department.updated': 'admin.audit.action.department.updated',
  'department.deleted': 'admin.audit.action.department.deleted',
  'department.agents_changed': 'admin.audit.action.department.agents_changed',
  'department.hours_changed': 'admin.audit.action.department.hours_changed',
  'password.reset_requested': 'admin.audit.action.password.reset_requested',
  'password.set_from_link': 'admin.audit.action.password.set_from_link',
  'sign_in_throttle.cleared': 'admin.audit.action.sign_in_throttle.cleared',
  'backup.taken': 'admin.audit.action.backup.taken',
  'backup.restored': 'admin.audit.action.backup.restored',
};

/** What an action was done to, by its kind, in the reader's words ("agent 5"). */
const TARGETS: Record<string, TextKey> = {
  agent: 'admin.audit.target.agent',
  channel: 'admin.audit.target.channel',
  chat: 'admin.audit.target.chat',
  department: 'admin.audit.target.department',
  mail: 'admin.audit.target.mail',
  sign_in_throttle: 'admin.audit.target.sign_in_throttle',
  visitor: 'admin.audit.target.visitor',
};

function target(e: AuditEntryDto): string {
  if (!e.target) return '—';
  const id = String(e.target.id);
  return e.target.type in TARGETS ? t(TARGETS[e.target.type], { id }) : `${e.target.type.replace(/_/g, ' ')} ${id}`;
}

function who(e: AuditEntryDto): string {
  if (e.agent) return e.agent.name ?? t('admin.audit.agentNumber', { id: String(e.agent.id) });
  return e.action.startsWith('password.') ? t('admin.audit.signedOut') : t('admin.audit.server');
}

export function AuditLog() {
  const list = useList<AuditEntryDto>(() => api.audit({ limit: PAGE }));
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
      <h1 id="audit-title">{t('admin.audit.title')}</h1>
      <div className="row">
        <p className="muted grow">{t('admin.audit.intro')}</p>
        <button type="button" onClick={list.reload}>
          {t('admin.refresh')}
        </button>
      </div>
      <ErrorText error={error ?? list.error} />
      {list.items.length > 0 && (
        <table className="audit">
          <thead>
            <tr>
              <th scope="col">{t('admin.audit.when')}</th>
              <th scope="col">{t('admin.audit.who')}</th>
              <th scope="col">{t('admin.audit.what')}</th>
              <th scope="col">{t('admin.audit.toWhat')}</th>
              <th scope="col">{t('admin.audit.from')}</th>
            </tr>
          </thead>
          <tbody>
            {list.items.map((e) => (
              <tr key={e.id} data-action={e.action}>
                <td>{formatDateTime(e.at)}</td>
                <td>{who(e)}</td>
                <td>{e.action in ACTIONS ? t(ACTIONS[e.action]) : e.action}</td>
                <td>{target(e)}</td>
                <td className="break">{e.address ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {list.items.length === 0 && !list.loading && !list.error && (
        <p className="muted" data-empty="audit">
          {t('admin.audit.empty')}
        </p>
      )}
      {more && list.items.length >= PAGE && (
        <button type="button" onClick={() => void loadMore()}>
          {t('admin.loadOlder')}
        </button>
      )}
    </section>
  );
}
