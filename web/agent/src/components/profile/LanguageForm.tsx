/**
 * Profile → Language: the app's language for this agent (PATCH /api/v1/me
 * {language}), kept on the server so it follows the person to every browser.
 * "Browser's language" (null) speaks the first of the browser's languages the
 * app knows. Choosing saves at once; App.tsx follows the saved agent's
 * choice, so the app (and the result beside the field) switches there and then.
 */
import { api } from '../../api';
import { useSession } from '../../context';
import { AGENT_LANGUAGES, LANGUAGE_NAMES, pickLanguage, t } from '../../i18n';
import { useSaver } from '../../hooks/useSaver';
import { SaveResult } from '../admin/SaveResult';

export function LanguageForm() {
  const { me, setMe } = useSession();
  const saver = useSaver();
  const browser = pickLanguage(null, navigator.languages ?? [navigator.language]);

  const choose = (value: string) =>
    saver.run(
      async () => setMe(await api.updateProfile({ language: value === '' ? null : value })),
      () => t('pages.language.saved'),
    );

  return (
    <section className="card form-grid" aria-labelledby="profile-language">
      <h2 id="profile-language">{t('pages.language.title')}</h2>
      <label>
        {t('pages.language.label')}
        <select
          name="language"
          value={me.language ?? ''}
          disabled={saver.busy}
          aria-describedby="profile-language-hint"
          onChange={(e) => void choose(e.target.value)}
        >
          <option value="">{t('pages.language.browser', { name: LANGUAGE_NAMES[browser] })}</option>
          {AGENT_LANGUAGES.map((l) => (
            // Each language by its own name, marked as such for screen readers.
            <option key={l} value={l} lang={l}>
              {LANGUAGE_NAMES[l]}
            </option>
          ))}
        </select>
      </label>
      <span id="profile-language-hint" className="muted small">
        {t('pages.language.hint')}
      </span>
      <div className="form-actions">
        <SaveResult saver={saver} />
      </div>
    </section>
  );
}
