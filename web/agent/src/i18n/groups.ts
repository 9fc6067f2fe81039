/**
 * The admin pages' texts, in groups of pages (docs/I18N.md): each language but
 * English ships each group as a chunk of its own, loaded when a page of the
 * group first opens, so the language an administrator loads for one screen is
 * its core plus one group. A key belongs to the group of its part's name
 * (`admin.audit.…` → records); the few keys pages of several groups read are
 * in SHARED and go with every group. groups.test.ts checks, from the pages'
 * sources, that each page reads only its group's and the shared keys.
 */
import type { AdminSection } from '../routes.js';

export const ADMIN_GROUPS = ['team', 'channels', 'settings', 'delivery', 'records'] as const;
export type AdminGroup = (typeof ADMIN_GROUPS)[number];

/** The group each admin page loads. */
export const SECTION_GROUP: Record<AdminSection, AdminGroup> = {
  agents: 'team',
  departments: 'team',
  'working-hours': 'team',
  assignment: 'team',
  'canned-responses': 'channels',
  channels: 'channels',
  settings: 'settings',
  deliveries: 'delivery',
  mail: 'delivery',
  'sign-in-throttles': 'delivery',
  files: 'records',
  system: 'records',
  audit: 'records',
};

/** The parts (the word after `admin.`) of each group. */
const PARTS: Record<AdminGroup, readonly string[]> = {
  team: ['agents', 'agentEdit', 'agentForm', 'departments', 'members', 'workingHours', 'hours', 'assignment'],
  channels: ['canned', 'channel', 'channelForm', 'channels', 'agentPicker', 'appearance', 'contrast', 'identity'],
  settings: ['callback', 'company', 'eventTypes', 'notifications', 'presence', 'retention', 'settings', 'triggers'],
  delivery: ['deliveries', 'mail', 'throttles'],
  records: ['files', 'system', 'backup', 'export', 'version', 'audit'],
};

/** Keys (or key prefixes ending in a part) pages of several groups read: in every group's chunk. */
const SHARED: readonly string[] = [
  'nav',
  'listSeparator',
  'saved',
  'copy',
  'never',
  'refresh',
  'loadOlder',
  'actions',
  'attempts',
  'alwaysOpen',
  'closedPlaceholder',
  'timezone',
  'givenUp',
  'assignment.department',
  'audit.what',
  'audit.when',
  'audit.who',
];

const GROUP_OF_PART = new Map(ADMIN_GROUPS.flatMap((g) => PARTS[g].map((p) => [p, g] as const)));

/** The group of an admin key, 'shared' for a key every group carries, undefined for a key no group names. */
export function adminGroupOf(key: string): AdminGroup | 'shared' | undefined {
  const rest = key.slice('admin.'.length);
  if (SHARED.some((s) => rest === s || rest.startsWith(`${s}.`))) return 'shared';
  return GROUP_OF_PART.get(rest.split('.')[0]);
}

/** The admin keys a group's chunk carries, in the order of `keys` (the English catalogue's). */
export function groupKeys(keys: readonly string[], group: AdminGroup): string[] {
  return keys.filter((k) => {
    const g = adminGroupOf(k);
    return g === group || g === 'shared';
  });
}
