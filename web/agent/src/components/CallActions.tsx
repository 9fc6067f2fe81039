/** Status actions of a call (POST /api/v1/calls/:id/status): connected, ended, or failed with a reason. */
import { useState, type FormEvent } from 'react';
import { api, errorText } from '../api';
import { t } from '../i18n';
import type { TextKey } from '../i18n/en';
import type { CallDto } from '../../../../protocol/agent';

const ACTIONS: ReadonlyArray<readonly [string, TextKey]> = [
  ['agent_connected', 'pages.calls.agentConnected'],
  ['client_connected', 'pages.calls.clientConnected'],
  ['end', 'pages.calls.endCall'],
];

export function CallActions({ call, onChanged }: { call: CallDto; onChanged: (call: CallDto) => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [failing, setFailing] = useState(false);
  const [reason, setReason] = useState('');

  const post = async (status: string, extra: { reason?: string } = {}) => {
    setBusy(true);
    setError(null);
    try {
      onChanged(await api.callStatus(call.id, { status, ...extra }));
      setFailing(false);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  const fail = (e: FormEvent) => {
    e.preventDefault();
    void post('error', reason.trim() ? { reason: reason.trim() } : {});
  };

  return (
    <div className="call-actions">
      <div className="row" role="group" aria-label={t('pages.calls.statusOf', { phone: call.phone })}>
        {ACTIONS.map(([status, label]) => (
          <button key={status} type="button" disabled={busy || call.status === status} onClick={() => void post(status)}>
            {t(label)}
          </button>
        ))}
        <button type="button" disabled={busy} onClick={() => setFailing((f) => !f)} aria-expanded={failing}>
          {t('pages.calls.failedButton')}
        </button>
      </div>
      {failing && (
        <form className="row" onSubmit={fail}>
          <label>
            {t('pages.calls.reason')}
            <input name="reason" value={reason} maxLength={500} onChange={(e) => setReason(e.target.value)} />
          </label>
          <button type="submit" className="danger" disabled={busy}>
            {t('pages.calls.markFailed')}
          </button>
        </form>
      )}
      {error && (
        <p className="error small" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
