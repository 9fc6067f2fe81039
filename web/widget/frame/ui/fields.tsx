/** A labelled input, shared by the forms (uncontrolled: re-renders never wipe what the visitor typed). */
import { useState } from 'preact/hooks';

let ids = 0;

export function Field(props: { label: string; name: string; type?: string; required?: boolean; multiline?: boolean; value?: string; autocomplete?: string }) {
  const [id] = useState(() => `f${++ids}`);
  const common = { id, name: props.name, required: props.required, defaultValue: props.value ?? '' };
  return (
    <p class="field">
      <label for={id}>
        {props.label}
        {props.required && <span aria-hidden="true"> *</span>}
      </label>
      {props.multiline ? (
        <textarea {...common} rows={4} maxLength={4000} />
      ) : (
        <input {...common} type={props.type ?? 'text'} autocomplete={props.autocomplete} maxLength={200} />
      )}
    </p>
  );
}

/** The form's values by field name (trimmed strings). */
export function formValues(form: HTMLFormElement): Record<string, string> {
  const out: Record<string, string> = {};
  new FormData(form).forEach((v, k) => {
    if (typeof v === 'string') out[k] = v.trim();
  });
  return out;
}
