// A Vitest reporter that writes down the tests that passed only on a retry
// (CI runs with `retry: 1`, vitest.config.ts), one JSON line each, to the file
// named by PARLEY_FLAKY_FILE; scripts/test.mjs prints them at the end of the
// run so that a flaky test stays visible and gets fixed, not hidden.
import fs from 'node:fs';

export default class FlakyReporter {
  onTestCaseResult(testCase) {
    const file = process.env.PARLEY_FLAKY_FILE;
    const diagnostic = testCase.diagnostic();
    if (!file || !diagnostic?.flaky) return;
    const line = {
      project: testCase.project.name,
      file: testCase.module.moduleId,
      name: testCase.fullName,
      retries: diagnostic.retryCount,
    };
    fs.appendFileSync(file, `${JSON.stringify(line)}\n`);
  }
}
