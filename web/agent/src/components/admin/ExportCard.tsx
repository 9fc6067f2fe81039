/**
 * Admin → System, "Your data": the whole account as one file (GET /api/v1/export,
 * NDJSON; docs/DATA.md "Export"). A plain link: the browser streams the file to
 * disk with its own progress, whatever its size, and the sign-in cookie goes with it.
 */
import { t } from '../../i18n';
import { fillIn } from './fillIn';

/** The API requests for one person's data: code, the same in every language. */
const FIND_REQUEST = 'GET /api/v1/visitors?email=…';
const EXPORT_REQUEST = 'GET /api/v1/visitors/:id/export';

export function ExportCard() {
  return (
    <section aria-labelledby="export-title">
      <h2 id="export-title">{t('admin.export.title')}</h2>
      <p>{t('admin.export.intro')}</p>
      <p>
        <a className="button" href="/api/v1/export" download data-action="export">
          {t('admin.export.download')}
        </a>
      </p>
      <p className="muted small">
        {fillIn(t('admin.export.onePerson'), {
          find: <code dir="ltr">{FIND_REQUEST}</code>,
          export: <code dir="ltr">{EXPORT_REQUEST}</code>,
        })}
      </p>
    </section>
  );
}
