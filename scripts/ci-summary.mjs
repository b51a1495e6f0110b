// Reads jest's --json output and prints the one line CI reads: "N passed, N failed".
// Exits non-zero when anything failed, a suite did not load, the file is missing (a crashed run),
// or — with --require-e2e — no end-to-end test passed.
import { existsSync, readFileSync } from 'node:fs';

const [file = '.jest-results.json', ...flags] = process.argv.slice(2);
const requireE2e = flags.includes('--require-e2e');

if (!existsSync(file)) {
  console.log('ci: jest wrote no results (crashed, or found no tests)');
  console.log('0 passed, 1 failed');
  process.exit(1);
}

const results = JSON.parse(readFileSync(file, 'utf8'));
const passed = results.numPassedTests;
// A suite that fails to load adds nothing to numFailedTests: count it as a failure of its own.
const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
const e2ePassed = results.testResults
  .filter((suite) => suite.name.includes('/tests/e2e/'))
  .reduce((sum, suite) => sum + suite.assertionResults.filter((t) => t.status === 'passed').length, 0);

let extraFailures = 0;
if (requireE2e && e2ePassed === 0) {
  console.log('ci: no end-to-end test ran; e2e is required here');
  extraFailures = 1;
}
console.log(`ci: ${e2ePassed} end-to-end tests passed; ${results.numPendingTests} skipped`);
console.log(`${passed} passed, ${failed + extraFailures} failed`);
process.exit(failed + extraFailures > 0 || !results.success ? 1 : 0);
