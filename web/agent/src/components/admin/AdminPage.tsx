/** The admin area: agents, departments, channels, settings and the delivery log, one section at a time. */
import { Link } from '../../router';
import { Agents } from './Agents';
import { Channels } from './Channels';
import { Deliveries } from './Deliveries';
import { Departments } from './Departments';
import { SettingsPage } from './SettingsPage';

type Section = 'agents' | 'departments' | 'channels' | 'settings' | 'deliveries';

const SECTIONS: Array<[Section, string]> = [
  ['agents', 'Agents'],
  ['departments', 'Departments'],
  ['channels', 'Channels'],
  ['settings', 'Settings'],
  ['deliveries', 'Delivery log'],
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
      {section === 'channels' && <Channels />}
      {section === 'settings' && <SettingsPage />}
      {section === 'deliveries' && <Deliveries />}
    </div>
  );
}
