/** Status actions of a call (POST /api/v1/calls/:id/status): connected, ended, or failed with a reason. */
import { useState, type FormEvent } from 'react';
import { api, errorText } from '../api';
import type { Call } from '../types';

const ACTIONS = [
  ['agent_connected', 'Agent connected'],
  ['client_connected', 'Client connected'],
  ['end', 'End call'],
] as const;

export function CallActions({ call, onChanged }: { call: Call; onChanged: (call: Call) => void }) {
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
      <div className="row" role="group" aria-label={`Status of the call with ${call.phone}`}>
        {ACTIONS.map(([status, label]) => (
          <button key={status} type="button" disabled={busy || call.status === status} onClick={() => void post(status)}>
            {label}
          </button>
        ))}
        <button type="button" disabled={busy} onClick={() => setFailing((f) => !f)} aria-expanded={failing}>
          Failed…
        </button>
      </div>
      {failing && (
        <form className="row" onSubmit={fail}>
          <label>
            Reason
            <input name="reason" value={reason} maxLength={500} onChange={(e) => setReason(e.target.value)} />
          </label>
          <button type="submit" className="danger" disabled={busy}>
            Mark as failed
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
