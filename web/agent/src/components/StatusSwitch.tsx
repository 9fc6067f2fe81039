/** Online / away / offline for the signed-in agent (PUT /api/v1/me/status); online makes the agent's channels available. */
import { useState } from 'react';
import { api, errorText } from '../api';
import { useSession, useNotices } from '../context';
import { t } from '../i18n';
import type { TextKey } from '../i18n/en';
import type {} from '../../../../protocol/agent';
import type { AgentStatus } from '../types';

const ANNOUNCED: Record<AgentStatus, TextKey> = { online: 'pages.status.nowOnline', away: 'pages.status.nowAway', offline: 'pages.status.nowOffline' };

export function StatusSwitch() {
  const { me, setMe } = useSession();
  const { announce } = useNotices();
  const [busy, setBusy] = useState(false);
  const change = async (status: AgentStatus) => {
    setBusy(true);
    try {
      setMe(await api.setStatus(status));
      announce(t(ANNOUNCED[status]));
    } catch (err) {
      announce(t('pages.status.notChanged', { error: errorText(err) }));
    } finally {
      setBusy(false);
    }
  };
  return (
    <label className={`status status-${me.status}`}>
      <span className="sr-only">{t('pages.status.mine')}</span>
      <select name="status" value={me.status} disabled={busy} onChange={(e) => void change(e.target.value as AgentStatus)}>
        <option value="online">{t('pages.status.online')}</option>
        <option value="away">{t('pages.status.away')}</option>
        <option value="offline">{t('pages.status.offline')}</option>
      </select>
    </label>
  );
}
