/** A read-only value (URL, snippet, secret) with a Copy button; falls back to selecting the text where the clipboard API is unavailable. */
import { useId, useRef, useState } from 'react';

export function CopyField({ label, value, multiline = false }: { label: string; value: string; multiline?: boolean }) {
  const id = useId();
  const field = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  const [copied, setCopied] = useState<string>('');

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied('Copied');
    } catch {
      field.current?.select();
      setCopied(document.execCommand?.('copy') ? 'Copied' : 'Selected: press Ctrl+C');
    }
    window.setTimeout(() => setCopied(''), 3000);
  };

  return (
    <div className="copy-field">
      <label htmlFor={id}>{label}</label>
      <div className="row">
        {multiline ? (
          <textarea id={id} ref={field} readOnly rows={2} value={value} onFocus={(e) => e.target.select()} />
        ) : (
          <input id={id} ref={field} readOnly value={value} onFocus={(e) => e.target.select()} />
        )}
        <button type="button" onClick={() => void copy()} aria-label={`Copy ${label}`}>
          Copy
        </button>
        <span role="status" className="small muted">
          {copied}
        </span>
      </div>
    </div>
  );
}
