/** A read-only value (URL, snippet, secret) with a Copy button; falls back to selecting the text where the clipboard API is unavailable. The value reads left to right in every language. */
import { useId, useRef, useState } from 'react';
import { t } from '../../i18n';

export function CopyField({ label, value, multiline = false }: { label: string; value: string; multiline?: boolean }) {
  const id = useId();
  const field = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  const [copied, setCopied] = useState<string>('');

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(t('common.copied'));
    } catch {
      field.current?.select();
      setCopied(document.execCommand?.('copy') ? t('common.copied') : t('admin.copy.selected'));
    }
    window.setTimeout(() => setCopied(''), 3000);
  };

  return (
    <div className="copy-field">
      <label htmlFor={id}>{label}</label>
      <div className="row">
        {multiline ? (
          <textarea id={id} ref={field} readOnly rows={2} dir="ltr" value={value} onFocus={(e) => e.target.select()} />
        ) : (
          <input id={id} ref={field} readOnly dir="ltr" value={value} onFocus={(e) => e.target.select()} />
        )}
        <button type="button" onClick={() => void copy()} aria-label={t('admin.copy.label', { label })}>
          {t('common.copy')}
        </button>
        <span role="status" className="small muted">
          {copied}
        </span>
      </div>
    </div>
  );
}
