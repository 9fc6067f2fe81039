/** The signed-in frame: a header (navigation, status, alerts, sign-out) and the screen the path names (Reports loaded on demand). */
import { lazy, Suspense } from 'react';
import { useSession } from '../context';
import { parseRoute, usePath } from '../router';
import { AdminPage } from './admin/AdminPage';
import { Archive } from './Archive';
import { Calls } from './Calls';
import { ChunkBoundary } from './ChunkBoundary';
import { FirstRunGuide } from './FirstRunGuide';
import { Header } from './Header';
import { t } from '../i18n';
import { OfflineMessages } from './OfflineMessages';
import { PresenceKeeper } from './PresenceKeeper';
import { ProfilePage } from './profile/ProfilePage';
import { Workspace } from './Workspace';

/** Reports (and uPlot) load only when opened: their own chunk. */
const ReportsPage = lazy(() => import('./reports/ReportsPage'));

export function Shell() {
  const { me } = useSession();
  const route = parseRoute(usePath());
  return (
    <div className="app">
      <a className="skip-link" href="#main">
        {t('pages.shell.skip')}
      </a>
      <PresenceKeeper />
      <Header route={route} />
      <FirstRunGuide />
      <main id="main" className="main" tabIndex={-1}>
        {(route.name === 'inbox' || route.name === 'chat') && <Workspace route={route} />}
        {route.name === 'archive' && <Archive />}
        {route.name === 'offline' && <OfflineMessages />}
        {route.name === 'calls' && <Calls />}
        {route.name === 'profile' && <ProfilePage />}
        {route.name === 'reports' && (
          <ChunkBoundary what={() => t('pages.nav.reports')}>
            <Suspense fallback={<p className="page-note">{t('pages.shell.loadingReports')}</p>}>
              <ReportsPage />
            </Suspense>
          </ChunkBoundary>
        )}
        {route.name === 'admin' && (me.role === 'admin' ? <AdminPage section={route.section} /> : <p className="page-note">{t('pages.shell.adminOnly')}</p>)}
        {route.name === 'notFound' && <p className="page-note">{t('pages.shell.notFound')}</p>}
      </main>
    </div>
  );
}
