/**
 * axe-core in a real page or frame: the engine's source is evaluated in the
 * page (through the DevTools protocol, so the app's Content-Security-Policy
 * does not stop it), then run on the whole document against WCAG 2.1 A and
 * AA. `blocking` are the violations of impact serious or critical, which the
 * accessibility tests refuse; the moderate and minor ones are for the report
 * in docs/ACCESSIBILITY.md.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Frame, Page } from 'playwright-core';

const require = createRequire(import.meta.url);
const AXE_SOURCE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: 'minor' | 'moderate' | 'serious' | 'critical' | null;
  help: string;
  nodes: Array<{ target: string[]; failureSummary?: string }>;
}

export interface AxeReport {
  violations: AxeViolation[];
  /** Serious or critical: none may remain. */
  blocking: AxeViolation[];
}

/** Runs axe on `where` (a page or one of its frames; only inside `include`, a CSS selector, when given) and returns what it found. */
export async function runAxe(where: Page | Frame, include?: string): Promise<AxeReport> {
  const loaded = await where.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe === 'object');
  if (!loaded) await where.evaluate(AXE_SOURCE);
  const violations = await where.evaluate(async (include) => {
    const axe = (window as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(include ? { include: [[include]] } : document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
      resultTypes: ['violations'],
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })),
    }));
  }, include);
  return { violations, blocking: violations.filter((v) => v.impact === 'serious' || v.impact === 'critical') };
}

/** One line per violation and node, for an assertion's message. */
export function describeViolations(vs: AxeViolation[]): string[] {
  return vs.flatMap((v) => v.nodes.map((n) => `${v.impact} ${v.id} (${v.help}): ${n.target.join(' ')}`));
}
