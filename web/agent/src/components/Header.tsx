/**
 * The app header: navigation with live counts (and the person's own Profile), the agent's status, alert permission,
 * connection state, the person's name and photo (a long name cut short), and Sign out (Sign out everywhere is on
 * the Profile page). At phone width the navigation and the less used tools fold into a Menu button (styles.css),
 * so the header is one row with the status at hand.
 */
import { useEffect, useState } from 'react';
import { useAccountName } from '../accountName';
import { attentionCount, chatsWithStatus } from '../inbox';
import { useSession, useInbox } from '../context';
import { t } from '../i18n';
import type { TextKey } from '../i18n/en';
import { Link, type Route } from '../router';
import { AlertsButton } from './AlertsButton';
import { StatusSwitch } from './StatusSwitch';

const STREAM_LABEL: Record<'connecting' | 'live' | 'reconnecting' | 'closed', TextKey> = {
  connecting: 'pages.header.connecting',
  live: 'pages.header.live',
  reconnecting: 'pages.header.reconnecting',
  closed: 'pages.status.offline',
};

export function Header({ route }: { route: Route }) {
  const { me, signOut } = useSession();
  const { inbox, stream, badges } = useInbox();
  const pending = chatsWithStatus(inbox, 'pending').length;
  const attention = attentionCount(inbox);
  const current = (match: boolean) => (match ? 'page' : undefined);
  const [menuOpen, setMenuOpen] = useState(false);
  const accountName = useAccountName();
  // Choosing a screen closes the menu.
  const where = JSON.stringify(route);
  useEffect(() => setMenuOpen(false), [where]);
  return (
    <header className={`header${menuOpen ? ' menu-open' : ''}`}>
      <div className="brand" dir="auto">
        {accountName}
      </div>
      <button type="button" className="menu-toggle" aria-expanded={menuOpen} aria-controls="main-nav" onClick={() => setMenuOpen(!menuOpen)}>
        <span aria-hidden="true">☰</span> {t('pages.header.menu')}
        {attention > 0 && (
          <span className="badge" aria-label={t('pages.header.attention', { waiting: pending, unread: attention - pending })}>
            {attention}
          </span>
        )}
      </button>
      <nav aria-label={t('pages.header.main')} className="nav" id="main-nav">
        <Link href="/" aria-current={current(route.name === 'inbox' || route.name === 'chat')}>
          {t('pages.nav.inbox')}
          {attention > 0 && (
            <span className="badge" aria-label={t('pages.header.attention', { waiting: pending, unread: attention - pending })}>
              {attention}
            </span>
          )}
        </Link>
        <Link href="/archive" aria-current={current(route.name === 'archive')}>
          {t('pages.nav.archive')}
        </Link>
        <Link href="/offline" aria-current={current(route.name === 'offline')}>
          {t('pages.offline.title')}
          {badges.offline > 0 && <span className="badge">{badges.offline}</span>}
        </Link>
        <Link href="/calls" aria-current={current(route.name === 'calls')}>
          {t('pages.nav.calls')}
          {badges.calls > 0 && <span className="badge">{badges.calls}</span>}
        </Link>
        <Link href="/reports" aria-current={current(route.name === 'reports')}>
          {t('pages.nav.reports')}
        </Link>
        <Link href="/profile" title={t('pages.nav.profileTitle')} aria-current={current(route.name === 'profile')}>
          {t('pages.nav.profile')}
        </Link>
        {me.role === 'admin' && (
          <Link href="/admin/agents" aria-current={current(route.name === 'admin')}>
            {t('pages.nav.admin')}
          </Link>
        )}
      </nav>
      <div className="header-tools">
        <span className={`conn conn-${stream}`} role="status" title={t('pages.header.liveUpdates')}>
          {t(STREAM_LABEL[stream])}
        </span>
        <StatusSwitch />
        <div className="header-more">
          <AlertsButton />
          {/* Plain text, not a link: links named like a person ("Administrator") would be confused with "Admin". Profile is in the navigation. */}
          <span className="me" title={`${me.name} (${me.email})`}>
            {me.photo_url && <img className="me-photo" src={me.photo_url} alt="" width={24} height={24} />}
            <span className="me-name">{me.name}</span>
          </span>
          <button type="button" onClick={() => void signOut()}>
            {t('pages.signOut')}
          </button>
        </div>
      </div>
    </header>
  );
}
