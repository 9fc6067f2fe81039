/**
 * The shipped form of the agent app's catalogues (docs/I18N.md): each
 * language's compact chunk (i18nCompact.ts: its texts alone, in the English
 * keys' order) decodes (src/i18n/compact.ts, as the app does) to exactly its
 * JSON catalogue; every admin key is in a group of pages, and each admin page
 * reads only texts its group's chunk carries (or the core's), so no page shows
 * English beside its language.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AGENT_LANGUAGES } from '../../protocol/agent.js';
import { ADMIN_SECTIONS } from './src/routes.js';
import { compactCatalogue } from './i18nCompact.js';
import { decodeTexts } from './src/i18n/compact.js';
import { ADMIN_GROUPS, SECTION_GROUP, adminGroupOf, groupKeys } from './src/i18n/groups.js';

const I18N = path.resolve(import.meta.dirname, 'src/i18n');
const read = (lang: string, part: string): Record<string, unknown> => JSON.parse(fs.readFileSync(path.join(I18N, lang, `${part}.json`), 'utf8'));
const OTHERS = AGENT_LANGUAGES.filter((l) => l !== 'en');
const enAdminKeys = Object.keys(read('en', 'admin'));

describe('compact catalogues', () => {
  for (const lang of OTHERS) {
    it(`${lang}: each core part and each admin group decodes to exactly its JSON catalogue`, () => {
      for (const part of ['common', 'workspace', 'pages']) {
        const out = compactCatalogue(path.join(I18N, lang, `${part}.json`))!;
        const shipped: unknown = JSON.parse(out.json);
        expect(Array.isArray(shipped), `${lang}/${part}.json ships as an array of texts`).toBe(true);
        expect(out.json).not.toContain(`"${part}.`);
        expect(decodeTexts(Object.keys(read('en', part)), shipped)).toEqual(read(lang, part));
      }
      const admin = read(lang, 'admin');
      const decoded: Record<string, unknown> = {};
      for (const group of ADMIN_GROUPS) {
        const keys = groupKeys(enAdminKeys, group);
        const texts = decodeTexts(keys, JSON.parse(compactCatalogue(`${path.join(I18N, lang, 'admin.json')}?${group}`)!.json));
        expect(texts).toEqual(Object.fromEntries(keys.map((k) => [k, admin[k]])));
        Object.assign(decoded, texts);
      }
      expect(decoded).toEqual(admin);
    });
  }

  it('leaves English as it is and refuses a group it does not know', () => {
    expect(compactCatalogue(path.join(I18N, 'en', 'pages.json'))).toBeNull();
    expect(() => compactCatalogue(`${path.join(I18N, 'de', 'admin.json')}?nope`)).toThrow(/only admin\.json has groups/);
  });

  it('puts a key the language lacks as null, which decodes to nothing (English shows)', () => {
    expect(decodeTexts(['a', 'b'], ['x', null])).toEqual({ a: 'x' });
  });
});

/** The admin keys a component and what it imports from components/admin read: literal keys, and prefixes of keys built from a template. */
function keysRead(file: string, seen = new Set<string>()): { keys: Set<string>; prefixes: Set<string> } {
  const keys = new Set<string>();
  const prefixes = new Set<string>();
  const walk = (f: string): void => {
    if (seen.has(f)) return;
    seen.add(f);
    const src = fs.readFileSync(f, 'utf8');
    for (const m of src.matchAll(/['"](admin\.[\w.]+)['"]/g)) keys.add(m[1]);
    for (const m of src.matchAll(/`(admin\.[\w.]+)\$\{/g)) prefixes.add(m[1]);
    for (const m of src.matchAll(/from '(\.[^']+)'/g)) {
      for (const ext of ['.tsx', '.ts']) {
        const next = path.resolve(path.dirname(f), m[1] + ext);
        if (fs.existsSync(next) && next.includes(`${path.sep}components${path.sep}admin${path.sep}`)) walk(next);
      }
    }
  };
  walk(file);
  return { keys, prefixes };
}

const ROOTS: Record<(typeof ADMIN_SECTIONS)[number], string> = {
  agents: 'Agents',
  departments: 'Departments',
  'working-hours': 'WorkingHours',
  assignment: 'Assignment',
  'canned-responses': 'CannedResponses',
  channels: 'Channels',
  settings: 'SettingsPage',
  deliveries: 'Deliveries',
  mail: 'Mails',
  'sign-in-throttles': 'SignInThrottles',
  files: 'Files',
  system: 'SystemPage',
  audit: 'AuditLog',
};

describe('admin text groups', () => {
  it('puts every admin key in a group or in the shared keys', () => {
    expect(enAdminKeys.filter((k) => adminGroupOf(k) === undefined)).toEqual([]);
  });

  it('finds the keys a page reads, and a key of another group', () => {
    const { keys, prefixes } = keysRead(path.resolve(import.meta.dirname, 'src/components/admin/Agents.tsx'));
    expect(keys).toContain('admin.agents.title');
    expect(prefixes).toContain('admin.agents.status.');
    expect(adminGroupOf('admin.audit.intro')).toBe('records');
    expect(groupKeys(enAdminKeys, 'team')).not.toContain('admin.audit.intro');
  });

  for (const section of ADMIN_SECTIONS) {
    it(`${section}: reads only the texts of its group (${SECTION_GROUP[section]}) and the shared ones`, () => {
      const { keys, prefixes } = keysRead(path.resolve(import.meta.dirname, `src/components/admin/${ROOTS[section]}.tsx`));
      const carried = new Set(groupKeys(enAdminKeys, SECTION_GROUP[section]));
      const wrong = [...keys].filter((k) => !carried.has(k));
      for (const p of prefixes) wrong.push(...enAdminKeys.filter((k) => k.startsWith(p) && !carried.has(k)));
      expect(keys.size).toBeGreaterThan(0);
      expect(wrong).toEqual([]);
    });
  }
});
