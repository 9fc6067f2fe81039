/**
 * The build's step for the agent app's catalogues (docs/I18N.md): another
 * language's JSON catalogue (`src/i18n/ru/pages.json`, or a group of its admin
 * texts, `src/i18n/ru/admin.json?team`) is shipped as its texts alone, a JSON
 * array in the order of the English catalogue's keys, which the app holds
 * anyway; src/i18n/compact.ts decodes it. The keys are about a third of a
 * catalogue's bytes. English is left as it is (it gives the keys).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';
import { compactTexts, type Entry } from './src/i18n/compact.js';
import { ADMIN_GROUPS, groupKeys, type AdminGroup } from './src/i18n/groups.js';

const CATALOGUE = /[\\/]i18n[\\/](\w+)[\\/](common|workspace|pages|admin)\.json(?:\?(\w+))?$/;

/** A catalogue file's texts, read once per version of the file (a build reads each language's admin.json for each group). */
const cache = new Map<string, { mtime: number; texts: Record<string, Entry> }>();
function read(file: string): Record<string, Entry> {
  const mtime = fs.statSync(file).mtimeMs;
  const hit = cache.get(file);
  if (hit?.mtime === mtime) return hit.texts;
  const texts = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, Entry>;
  cache.set(file, { mtime, texts });
  return texts;
}

/** The compact JSON text of a catalogue module id, with the files it is made of; null for an id that is not another language's catalogue. */
export function compactCatalogue(id: string): { json: string; files: string[] } | null {
  const m = CATALOGUE.exec(id);
  if (!m || m[1] === 'en') return null;
  const [, , part, group] = m;
  if (group !== undefined && (part !== 'admin' || !(ADMIN_GROUPS as readonly string[]).includes(group)))
    throw new Error(`${id}: only admin.json has groups (${ADMIN_GROUPS.join(', ')})`);
  const file = id.replace(/\?.*$/, '');
  const english = path.join(path.dirname(file), '..', 'en', `${part}.json`);
  const keys = Object.keys(read(english));
  const wanted = group === undefined ? keys : groupKeys(keys, group as AdminGroup);
  return { json: JSON.stringify(compactTexts(wanted, read(file))), files: [file, english] };
}

export function i18nCompact(): Plugin {
  return {
    name: 'parley-i18n-compact',
    enforce: 'pre',
    // JSON, also for an id with a group query (whose name no longer ends in .json): the bundler makes it a module.
    load(id) {
      const out = compactCatalogue(id);
      if (!out) return null;
      for (const f of out.files) this.addWatchFile(f);
      return { code: out.json, moduleType: 'json' };
    },
  };
}
