/** A destructive action that asks once more, inline (no browser dialog). */
import { useState } from 'react';
import { t } from '../../i18n';

export function ConfirmButton({ label, question, onConfirm }: { label: string; question: string; onConfirm: () => void | Promise<void> }) {
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return (
      <button type="button" className="danger" onClick={() => setAsking(true)}>
        {label}
      </button>
    );
  }
  return (
    <span className="confirm" role="group" aria-label={question}>
      <span className="small">{question}</span>
      <button
        type="button"
        className="danger"
        onClick={async () => {
          setAsking(false);
          await onConfirm();
        }}
      >
        {t('common.yes')}
      </button>
      <button type="button" onClick={() => setAsking(false)}>
        {t('common.cancel')}
      </button>
    </span>
  );
}
