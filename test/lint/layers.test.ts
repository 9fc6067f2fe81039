/**
 * The layer rules of eslint.config.js (layerRules: import-x no-restricted-paths
 * zones and no-cycle, docs/ARCHITECTURE.md "Layers") bite: a presenter that
 * imports the domain, a domain module that imports realtime and a circle of
 * value imports, written as files inside the linted tree, each fail; and the
 * real server/ and protocol/ trees pass. The rules run with the parser alone
 * (no type information: they need none), so this stays quick.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ESLint, type Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const CONFIG = path.join(ROOT, 'eslint.config.js');

async function layerEslint(): Promise<ESLint> {
  const { layerRules } = (await import(CONFIG)) as { layerRules: Linter.Config[] };
  return new ESLint({
    cwd: ROOT,
    overrideConfigFile: true,
    // The files' own eslint-disable comments name rules of the whole config, which is not loaded here.
    allowInlineConfig: false,
    overrideConfig: [{ files: ['**/*.ts'], languageOptions: { parser: tseslint.parser } }, ...layerRules],
  });
}

/** Probe files, removed after the tests (named so that no real module is ever taken for one). */
const written: string[] = [];
function probe(rel: string, text: string): string {
  const file = path.join(ROOT, rel);
  fs.writeFileSync(file, text);
  written.push(file);
  return file;
}
afterAll(() => {
  for (const file of written) fs.rmSync(file, { force: true });
});

const tag = `${process.pid}`;
const ruleIds = (results: ESLint.LintResult[]) => results.flatMap((r) => r.messages.map((m) => m.ruleId));

describe('the layer rules', () => {
  it('refuse a presenter importing the domain', async () => {
    const file = probe(
      `server/presenters/zzLayersProbe${tag}.ts`,
      "import { getSettings } from '../domain/settings/getSettings.js';\nexport const probe = getSettings;\n",
    );
    const results = await (await layerEslint()).lintFiles([file]);
    expect(ruleIds(results)).toContain('import-x/no-restricted-paths');
  });

  it('refuse a domain module importing realtime', async () => {
    const file = probe(`server/domain/zzLayersProbe${tag}.ts`, "import { EventFeed } from '../realtime/feed.js';\nexport const probe = EventFeed;\n");
    const results = await (await layerEslint()).lintFiles([file]);
    expect(results[0].messages.map((m) => [m.ruleId, m.message.includes('realtime')])).toContainEqual(['import-x/no-restricted-paths', true]);
  });

  it('refuse a circle of imports', async () => {
    const a = probe(`server/lib/zzCycleA${tag}.ts`, `import { b } from './zzCycleB${tag}.js';\nexport const a = (): number => b() + 1;\n`);
    probe(`server/lib/zzCycleB${tag}.ts`, `import { a } from './zzCycleA${tag}.js';\nexport const b = (): number => (a.length > 0 ? 0 : 1);\n`);
    const results = await (await layerEslint()).lintFiles([a]);
    expect(ruleIds(results)).toContain('import-x/no-cycle');
  });

  it('pass the real tree', { timeout: 180_000 }, async () => {
    const results = await (await layerEslint()).lintFiles(['server/**/*.ts', 'protocol/**/*.ts']);
    const problems = results
      .filter((r) => !r.filePath.includes('zzLayersProbe') && !r.filePath.includes('zzCycle'))
      .flatMap((r) => r.messages.map((m) => `${path.relative(ROOT, r.filePath)}:${m.line} ${m.ruleId}: ${m.message}`));
    expect(problems).toEqual([]);
  });
});
