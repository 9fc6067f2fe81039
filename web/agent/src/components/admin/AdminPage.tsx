/** The admin area: agents, departments, working hours, assignment, canned responses, channels, settings, the delivery log, the mail, sign-in throttles, uploaded files, the system and the audit log, one section at a time. */
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

const SECTIONS: Array<[Section, string]> = [
  ['agents', 'Agents'],
  ['departments', 'Departments'],
  ['working-hours', 'Working hours'],
  ['assignment', 'Assignment'],
  ['canned-responses', 'Canned responses'],
  ['channels', 'Channels'],
  ['settings', 'Settings'],
  ['deliveries', 'Delivery log'],
  ['mail', 'Mail'],
  ['sign-in-throttles', 'Sign-in throttles'],
  ['files', 'Files'],
  ['system', 'System'],
  ['audit', 'Audit log'],
];

export function AdminPage({ section }: { section: Section }) {
  return (
    <div className="admin">
      <nav className="tabs" aria-label="Admin">
        {SECTIONS.map(([key, label]) => (
          <Link key={key} href={`/admin/${key}`} className="tab" aria-current={section === key ? 'page' : undefined}>
            {label}
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
