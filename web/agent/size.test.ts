/**
 * The agent app's language budget (docs/I18N.md): a language costs a person
 * at most 15 KB gzipped on any screen. English is in the app's bundle; each
 * other language is its core chunk (de-….js: the shared words, the workspace
 * and the pages), loaded before the first screen is drawn, which is all an
 * agent loads, and a chunk per group of admin pages (de-admin-team-….js, …),
 * loaded with the first page of its group. So this holds the core alone (an
 * agent) and the core with each admin group (an administrator on a page of
 * that group) to 15 KB, and checks that each shipped chunk, decoded as the app
 * does, says exactly its JSON catalogue. The sizes are printed for docs/I18N.md.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import zlib from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureAgentAppBuilt } from '../../e2e/agent/harness.js';
import { AGENT_LANGUAGES } from '../../protocol/agent.js';
import { decodeTexts } from './src/i18n/compact.js';
import { ADMIN_GROUPS, groupKeys } from './src/i18n/groups.js';

const ASSETS = path.resolve(import.meta.dirname, '../../dist/web/agent/assets');
const I18N = path.resolve(import.meta.dirname, 'src/i18n');
const BUDGET = 15 * 1024;
const CORE_PARTS = ['common', 'workspace', 'pages'] as const;

const gzipped = (file: string): number => zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;
const json = (lang: string, part: string): Record<string, unknown> => JSON.parse(fs.readFileSync(path.join(I18N, lang, `${part}.json`), 'utf8'));
const OTHERS = AGENT_LANGUAGES.filter((l) => l !== 'en');

describe('agent app languages', () => {
  let files: string[] = [];
  const one = (lang: string, pattern: RegExp): string => {
    const found = files.filter((f) => pattern.test(f));
    expect(found, `one chunk ${pattern} for ${lang}`).toHaveLength(1);
    return path.join(ASSETS, found[0]);
  };
  const core = (lang: string): string => one(lang, new RegExp(`^${lang}-(?!admin-)[\\w-]+\\.js$`));
  const admin = (lang: string, group: string): string => one(lang, new RegExp(`^${lang}-admin-${group}-[\\w-]+\\.js$`));

  beforeAll(async () => {
    await ensureAgentAppBuilt();
    files = fs.readdirSync(ASSETS);
  }, 180_000);

  it('costs an agent (the core) and an administrator (the core and one admin group) at most 15 KB gzipped per language', () => {
    const rows: string[] = [];
    for (const lang of OTHERS) {
      const c = gzipped(core(lang));
      expect(c, `${lang} core: ${c} bytes gzipped`).toBeLessThanOrEqual(BUDGET);
      const groups = ADMIN_GROUPS.map((g) => [g, gzipped(admin(lang, g))] as const);
      for (const [g, size] of groups) expect(c + size, `${lang} core + admin ${g}: ${c} + ${size} bytes gzipped`).toBeLessThanOrEqual(BUDGET);
      rows.push(`${lang} core ${c}, ${groups.map(([g, s]) => `+${g} ${s} = ${c + s}`).join(', ')}`);
    }
    console.log(`agent app language chunks, bytes gzipped:\n${rows.join('\n')}`);
  });

  it('ships each language compact (no keys) and each chunk decodes to exactly its JSON catalogue', async () => {
    const enAdmin = Object.keys(json('en', 'admin'));
    for (const lang of OTHERS) {
      const file = core(lang);
      expect(fs.readFileSync(file, 'utf8')).not.toMatch(/common\.save|workspace\.|pages\.errors/);
      const shipped = (await import(pathToFileURL(file).href)) as Record<(typeof CORE_PARTS)[number], unknown>;
      for (const part of CORE_PARTS) {
        expect(Array.isArray(shipped[part]), `${lang} ${part} is compact`).toBe(true);
        expect(decodeTexts(Object.keys(json('en', part)), shipped[part]), `${lang} ${part}`).toEqual(json(lang, part));
      }
      const all = json(lang, 'admin');
      for (const group of ADMIN_GROUPS) {
        const keys = groupKeys(enAdmin, group);
        const chunk = (await import(pathToFileURL(admin(lang, group)).href)) as { default: unknown };
        expect(decodeTexts(keys, chunk.default), `${lang} admin ${group}`).toEqual(Object.fromEntries(keys.map((k) => [k, all[k]])));
      }
    }
  });
});
