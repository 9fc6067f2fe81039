/**
 * The agent app's language budget (docs/I18N.md): English is in the app's
 * bundle, and each other language is two chunks under dist/web/agent/assets:
 * its core (de-….js), loaded before the first screen is drawn, and its admin
 * pages' texts (de-admin-….js), loaded when an admin page opens. Each chunk
 * is at most 15 KB gzipped, so a language costs the first start little; the
 * sizes are printed for docs/I18N.md.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureAgentAppBuilt } from '../../e2e/agent/harness.js';
import { AGENT_LANGUAGES } from '../../protocol/agent.js';

const ASSETS = path.resolve(import.meta.dirname, '../../dist/web/agent/assets');
const BUDGET = 15 * 1024;

const gzipped = (file: string): number => zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;

describe('agent app languages', () => {
  beforeAll(async () => {
    await ensureAgentAppBuilt();
  }, 180_000);

  it('builds each language but English as a core chunk and an admin chunk, each at most 15 KB gzipped', () => {
    const files = fs.readdirSync(ASSETS);
    const sizes: string[] = [];
    for (const lang of AGENT_LANGUAGES.filter((l) => l !== 'en')) {
      for (const [part, pattern] of [
        ['core', new RegExp(`^${lang}-(?!admin-)[\\w-]+\\.js$`)],
        ['admin', new RegExp(`^${lang}-admin-[\\w-]+\\.js$`)],
      ] as const) {
        const chunks = files.filter((f) => pattern.test(f));
        expect(chunks, `one ${part} chunk for ${lang}`).toHaveLength(1);
        const size = gzipped(path.join(ASSETS, chunks[0]));
        sizes.push(`${lang} ${part} ${size}`);
        expect(size, `${chunks[0]}: ${size} bytes gzipped`).toBeLessThanOrEqual(BUDGET);
      }
    }
    console.log(`agent app language chunks, bytes gzipped: ${sizes.join(', ')}`);
  });
});
