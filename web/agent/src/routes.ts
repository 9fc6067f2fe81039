/** The app's paths and what each one shows (pure: no DOM, no React). */

export type Route =
  | { name: 'inbox'; tab: 'pending' | 'mine' | 'active' }
  | { name: 'chat'; id: number }
  | { name: 'archive' }
  | { name: 'offline' }
  | { name: 'calls' }
  | { name: 'reports' }
  | { name: 'profile' }
  | { name: 'admin'; section: AdminSection }
  | { name: 'notFound' };

/** Every admin page, in the navigation's order (the accessibility test visits each). */
export const ADMIN_SECTIONS = [
  'agents',
  'departments',
  'canned-responses',
  'channels',
  'settings',
  'deliveries',
  'mail',
  'sign-in-throttles',
  'working-hours',
  'assignment',
  'files',
  'system',
  'audit',
] as const;
export type AdminSection = (typeof ADMIN_SECTIONS)[number];

export function parseRoute(path: string): Route {
  const parts = path.split('/').filter(Boolean);
  if (parts.length === 0) return { name: 'inbox', tab: 'pending' };
  const [head, second] = parts;
  if (head === 'inbox' && (second === 'mine' || second === 'active' || second === 'pending')) return { name: 'inbox', tab: second };
  if (head === 'chats' && second && /^\d+$/.test(second)) return { name: 'chat', id: Number(second) };
  if (head === 'archive') return { name: 'archive' };
  if (head === 'offline') return { name: 'offline' };
  if (head === 'calls') return { name: 'calls' };
  if (head === 'reports') return { name: 'reports' };
  if (head === 'profile') return { name: 'profile' };
  if (head === 'admin') {
    const section = ADMIN_SECTIONS.find((s) => s === (second ?? 'agents'));
    if (section) return { name: 'admin', section };
  }
  return { name: 'notFound' };
}
