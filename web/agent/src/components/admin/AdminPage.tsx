/** The admin area: agents, departments, working hours, assignment, canned responses, channels, settings, the delivery log, the mail, sign-in throttles, uploaded files, the system and the audit log, one section at a time. */
import { t, useAdminTexts } from '../../i18n';
import type { TextKey } from '../../i18n/en';
import { Link } from '../../router';
import type { AdminSection } from '../../routes';
import { Agents } from './Agents';
import { Assignment } from './Assignment';
import { AuditLog } from './AuditLog';
import { CannedResponses } from './CannedResponses';
import { Channels } from './Channels';
import { Deliveries } from './Deliveries';
import { Departments } from './Departments';
import { Files } from './Files';
import { Mails } from './Mails';
import { SettingsPage } from './SettingsPage';
import { SignInThrottles } from './SignInThrottles';
import { SystemPage } from './SystemPage';
import { WorkingHours } from './WorkingHours';

type Section = AdminSection;

/** The sections in the order of the tabs, each with the key of its name (read at render, in the agent's language). */
const SECTIONS: Array<[Section, TextKey]> = [
  ['agents', 'admin.nav.agents'],
  ['departments', 'admin.nav.departments'],
  ['working-hours', 'admin.nav.workingHours'],
  ['assignment', 'admin.nav.assignment'],
  ['canned-responses', 'admin.nav.cannedResponses'],
  ['channels', 'admin.nav.channels'],
  ['settings', 'admin.nav.settings'],
  ['deliveries', 'admin.nav.deliveries'],
  ['mail', 'admin.nav.mail'],
  ['sign-in-throttles', 'admin.nav.signInThrottles'],
  ['files', 'admin.nav.files'],
  ['system', 'admin.nav.system'],
  ['audit', 'admin.nav.audit'],
];

export function AdminPage({ section }: { section: Section }) {
  // The admin pages' texts are a chunk of their own in each language but English: shown once it is in.
  const ready = useAdminTexts(section);
  if (!ready) {
    return (
      <div className="admin" aria-busy="true">
        <p className="muted">{t('common.loading')}</p>
      </div>
    );
  }
  return (
    <div className="admin">
      <nav className="tabs" aria-label={t('admin.nav.label')}>
        {SECTIONS.map(([key, label]) => (
          <Link key={key} href={`/admin/${key}`} className="tab" aria-current={section === key ? 'page' : undefined}>
            {t(label)}
          </Link>
        ))}
      </nav>
      {section === 'agents' && <Agents />}
      {section === 'departments' && <Departments />}
      {section === 'canned-responses' && <CannedResponses />}
      {section === 'channels' && <Channels />}
      {section === 'settings' && <SettingsPage />}
      {section === 'deliveries' && <Deliveries />}
      {section === 'mail' && <Mails />}
      {section === 'sign-in-throttles' && <SignInThrottles />}
      {section === 'working-hours' && <WorkingHours />}
      {section === 'assignment' && <Assignment />}
      {section === 'files' && <Files />}
      {section === 'system' && <SystemPage />}
      {section === 'audit' && <AuditLog />}
    </div>
  );
}
