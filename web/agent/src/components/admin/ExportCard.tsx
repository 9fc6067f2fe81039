/**
 * Admin → System, "Your data": the whole account as one file (GET /api/v1/export,
 * NDJSON; docs/DATA.md "Export"). A plain link: the browser streams the file to
 * disk with its own progress, whatever its size, and the sign-in cookie goes with it.
 */
export function ExportCard() {
  return (
    <section aria-labelledby="export-title">
      <h2 id="export-title">Your data</h2>
      <p>
        One file with every agent, department, channel, canned response, visitor, chat, message, call and offline message of this account, one JSON object per
        line (NDJSON). It holds no password, sign-in token or secret. A large account takes a while: your browser shows the download&apos;s progress, and the
        file&apos;s last line says how many lines came before it.
      </p>
      <p>
        <a className="button" href="/api/v1/export" download data-action="export">
          Download all data
        </a>
      </p>
      <p className="muted small">
        For one person&apos;s data (a request of access), find their visitor records with <code>GET /api/v1/visitors?email=…</code> and export one with{' '}
        <code>GET /api/v1/visitors/:id/export</code>.
      </p>
    </section>
  );
}
