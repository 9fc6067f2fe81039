/**
 * The chat_accepted answer's contact_info in the visitor panel. The answer
 * also writes the visitor's record, so its fields usually repeat the ones
 * just above: those are named in one line ("Same as the visitor's …"), and
 * only a field that says something else now (the visitor changed it since)
 * is shown as a row, as the transcript mail does.
 */
import { str } from '../format';
import { language, t } from '../i18n';
import type { TextKey } from '../i18n/en';
import type { ChatDto } from '../../../../protocol/agent';
import { Field } from './Field';

/** Each field: its key in the answer, its row label, and the word naming it inside a sentence ("Same as the visitor's name"). */
const FIELDS: ReadonlyArray<readonly ['name' | 'email' | 'phone' | 'description', TextKey, TextKey]> = [
  ['name', 'common.name', 'workspace.contact.name'],
  ['email', 'common.email', 'workspace.contact.email'],
  ['phone', 'common.phone', 'workspace.contact.phone'],
  ['description', 'workspace.visitor.about', 'workspace.contact.about'],
];

export function ContactInfo({ contact, visitor }: { contact: Record<string, unknown>; visitor: ChatDto['visitor'] }) {
  const given = FIELDS.map(([key, label, word]) => ({
    label: t(label),
    word: t(word),
    value: str(contact[key]),
    same: str(contact[key]) === str(visitor[key]),
  })).filter((f) => f.value !== null);
  if (given.length === 0) return null;
  const same = given.filter((f) => f.same).map((f) => f.word);
  const other = given.filter((f) => !f.same);
  return (
    <section aria-label={t('workspace.contact.title')}>
      <h4>{t('workspace.contact.title')}</h4>
      {other.length > 0 && (
        <dl className="fields">
          {other.map((f) => (
            <Field key={f.label} label={f.label} value={f.value} />
          ))}
        </dl>
      )}
      {same.length > 0 && <p className="muted small">{t('workspace.contact.same', { fields: listOf(same) })}</p>}
    </section>
  );
}

/**
 * "name", "name and e-mail", "name, e-mail and about", in the app's language
 * (Intl.ListFormat). The app's English has no comma before "and", as en-GB.
 */
function listOf(words: string[]): string {
  const lang = language();
  return new Intl.ListFormat(lang === 'en' ? 'en-GB' : lang, { style: 'long', type: 'conjunction' }).format(words);
}
