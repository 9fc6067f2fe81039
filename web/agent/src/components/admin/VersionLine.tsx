/** Admin → System: this Parley's version and the schema's migration level (GET /api/v1/version), for upgrades and bug reports. */
import { useEffect, useState } from 'react';
import { api } from '../../api';

export function VersionLine() {
  const [v, setV] = useState<{ version: string; migration: string | null; store: string } | null>(null);
  useEffect(() => {
    api.version().then(setV, () => setV(null));
  }, []);
  if (!v) return null;
  return (
    <p className="muted small" data-version={v.version}>
      Parley {v.version} on {v.store === 'postgres' ? 'PostgreSQL' : 'SQLite'}, schema at migration {v.migration ?? 'none'}. What changed between versions, and
      what to do when upgrading: CHANGELOG.md.
    </p>
  );
}
