/**
 * Whether the tools a deployment test runs are on this machine. Outside CI a
 * missing one skips the test with a loud line; with CI=true the test runs
 * anyway and fails on it (.ci/run installs them all).
 */
import fs from 'node:fs';

const CI = process.env.CI === 'true' || process.env.CI === '1';

export function toolsPresent(name: string, tools: string[]): boolean {
  const missing = tools.filter((tool) => !fs.existsSync(tool));
  if (missing.length === 0 || CI) return true;
  console.warn(`\n*** SKIPPED: ${name} needs ${missing.join(', ')} (apt-get install the Debian package; .ci/run does). ***\n`);
  return false;
}
