/** Admin → System: this Parley's version and the schema's migration level (GET /api/v1/version), for upgrades and bug reports. */
import { useEffect, useState } from 'react';
import { api } from '../../api';
import { t } from '../../i18n';

export function VersionLine() {
  const [v, setV] = useState<{ version: string; migration: string | null; store: string } | null>(null);
  useEffect(() => {
    api.version().then(setV, () => setV(null));
  }, []);
  if (!v) return null;
  return (
    <p className="muted small" data-version={v.version}>
      {t('admin.version.line', {
        version: v.version,
        store: v.store === 'postgres' ? 'PostgreSQL' : 'SQLite',
        migration: v.migration ?? t('admin.version.noMigration'),
      })}
    </p>
  );
}
