/** Online / away / offline for the signed-in agent (PUT /api/v1/me/status); online makes the agent's channels available. */
import { useState } from 'react';
import { api, errorText } from '../api';
import { useApp } from '../context';
import type { AgentStatus } from '../types';

export function StatusSwitch() {
  const { me, setMe, announce } = useApp();
  const [busy, setBusy] = useState(false);
  const change = async (status: AgentStatus) => {
    setBusy(true);
    try {
      setMe(await api.setStatus(status));
      announce(`Status: ${status}`);
    } catch (err) {
      announce(`Status not changed: ${errorText(err)}`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <label className={`status status-${me.status}`}>
      <span className="sr-only">My status</span>
      <select name="status" value={me.status} disabled={busy} onChange={(e) => void change(e.target.value as AgentStatus)}>
        <option value="online">Online</option>
        <option value="away">Away</option>
        <option value="offline">Offline</option>
      </select>
    </label>
  );
}
