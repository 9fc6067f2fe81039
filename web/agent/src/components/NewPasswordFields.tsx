/**
 * A new password, typed twice, with its hint: the same block on the first-run
 * page, the one-time-password page, a password link and Profile → Password.
 * passwordProblem() says, before anything is sent, why the two will not do.
 */
import { t } from '../i18n';
import type { TextKey } from '../i18n/en';

export interface NewPassword {
  password: string;
  again: string;
}

const MIN_LENGTH = 8;

/** The refusal in the reader's words (the form's own wording of it), or null when the two will do. */
export function passwordProblem(
  { password, again }: NewPassword,
  texts: { differ: TextKey; tooShort: TextKey } = { differ: 'pages.password.differ', tooShort: 'pages.password.tooShort' },
): string | null {
  if (password !== again) return t(texts.differ);
  if (password.length < MIN_LENGTH) return t(texts.tooShort);
  return null;
}

export function NewPasswordFields({
  id,
  value,
  onChange,
  hint,
  againLabel = t('pages.password.again'),
}: {
  /** Names the hint (`<id>-hint`). */
  id: string;
  value: NewPassword;
  onChange: (next: NewPassword) => void;
  hint: string;
  againLabel?: string;
}) {
  return (
    <>
      <label>
        {t('pages.password.new')}
        <input
          type="password"
          name="new_password"
          autoComplete="new-password"
          required
          minLength={MIN_LENGTH}
          aria-describedby={`${id}-hint`}
          value={value.password}
          onChange={(e) => onChange({ ...value, password: e.target.value })}
        />
      </label>
      <span id={`${id}-hint`} className="muted small">
        {hint}
      </span>
      <label>
        {againLabel}
        <input
          type="password"
          name="new_password_again"
          autoComplete="new-password"
          required
          value={value.again}
          onChange={(e) => onChange({ ...value, again: e.target.value })}
        />
      </label>
    </>
  );
}
