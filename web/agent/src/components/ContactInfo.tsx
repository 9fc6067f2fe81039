/**
 * The chat_accepted answer's contact_info in the visitor panel. The answer
 * also writes the visitor's record, so its fields usually repeat the ones
 * just above: those are named in one line ("Same as the visitor's …"), and
 * only a field that says something else now (the visitor changed it since)
 * is shown as a row, as the transcript mail does.
 */
import { str } from '../format';
import type { Chat } from '../types';
import { Field } from './Field';

const FIELDS = [
  ['name', 'Name'],
  ['email', 'E-mail'],
  ['phone', 'Phone'],
  ['description', 'About'],
] as const;

export function ContactInfo({ contact, visitor }: { contact: Record<string, unknown>; visitor: Chat['visitor'] }) {
  const given = FIELDS.map(([key, label]) => ({ label, value: str(contact[key]), same: str(contact[key]) === str(visitor[key]) })).filter(
    (f) => f.value !== null,
  );
  if (given.length === 0) return null;
  const same = given.filter((f) => f.same).map((f) => f.label.toLowerCase());
  const other = given.filter((f) => !f.same);
  return (
    <section aria-label="Contact info">
      <h4>Contact info</h4>
      {other.length > 0 && (
        <dl className="fields">
          {other.map((f) => (
            <Field key={f.label} label={f.label} value={f.value} />
          ))}
        </dl>
      )}
      {same.length > 0 && <p className="muted small">Same as the visitor&apos;s {listOf(same)} above.</p>}
    </section>
  );
}

/** "name", "name and e-mail", "name, e-mail and about". */
function listOf(words: string[]): string {
  return words.length === 1 ? words[0] : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}
