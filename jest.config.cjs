// Jest runs three projects: node (fhir, client, server), dom (the React app under jsdom) and e2e (a real
// server and Debian's Chromium, also for Medplum's React components). CommonJS config: see CONTRIBUTING.md.
const swc = [
  '@swc/jest',
  {
    jsc: {
      target: 'es2022',
      parser: { syntax: 'typescript', tsx: true },
      transform: { react: { runtime: 'automatic' } },
    },
    module: { type: 'commonjs' },
  },
];

// End-to-end tests drive Debian's Chromium. Where it is missing they are left out with one line
// saying so, unless E2E_REQUIRED=1 (CI), where they run and fail loudly.
const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const e2eAvailable = require('node:fs').existsSync(chromiumPath);
if (!e2eAvailable && process.env.E2E_REQUIRED !== '1') {
  console.log(`e2e: skipped, ${chromiumPath} not found; install it with: apt-get install -y chromium`);
}
const includeE2e = e2eAvailable || process.env.E2E_REQUIRED === '1';

const common = {
  roots: ['<rootDir>/tests'],
  transform: { '^.+\\.(t|j)sx?$': swc, '^.+\\.[cm]?js$': swc },
  // PGlite's CJS build uses import(); light-my-request needs ESM-only cookie and @fastify/static
  // ESM-only content-disposition, and jose (sign-in tokens) and Lingui (the app's messages, with its ICU
  // compiler) are ESM-only: transform them.
  transformIgnorePatterns: [
    '/node_modules/(?!(@electric-sql/pglite|cookie|content-disposition|jose|@lingui|@messageformat|@noble)/)',
  ],
  moduleFileExtensions: ['ts', 'tsx', 'js', 'cjs', 'mjs', 'json'],
};

// Jest's default (one worker fewer than the cores) runs one file at a time on a 2-core machine, and
// most suites there wait on a browser, a socket or a timer rather than the CPU: two workers at least.
const workers = Math.max(2, require('node:os').availableParallelism() - 1);

// Many server suites seed the demo clinic and sign four people in (scrypt) in beforeAll: 10-15 s on
// an idle 2-core machine, past 30 s when the machine is loaded (seen with load average 8-12).
module.exports = {
  testTimeout: 60000,
  maxWorkers: workers,
  projects: [
    {
      ...common,
      displayName: 'node',
      testEnvironment: 'node',
      testMatch: [
        '<rootDir>/tests/{fhir,client,server,graphql,conformance,lint,agent,hardening}/**/*.test.ts',
      ],
      // Medplum's React components run in Chromium: that suite belongs to the e2e project.
      testPathIgnorePatterns: ['/node_modules/', '<rootDir>/tests/conformance/medplum-react/'],
      globalSetup: '<rootDir>/tests/setup/node-global-setup.ts',
    },
    {
      ...common,
      displayName: 'dom',
      testEnvironment: '<rootDir>/tests/setup/dom-environment.ts',
      testMatch: ['<rootDir>/tests/app/**/*.test.{ts,tsx}'],
      setupFiles: ['<rootDir>/tests/setup/dom-polyfills.ts'],
      setupFilesAfterEnv: [
        '<rootDir>/tests/setup/dom-matchers.ts',
        '<rootDir>/tests/setup/dom-typed-documents.ts',
      ],
    },
    ...(includeE2e
      ? [
          {
            ...common,
            displayName: 'e2e',
            testEnvironment: 'node',
            testMatch: [
              '<rootDir>/tests/e2e/**/*.test.ts',
              '<rootDir>/tests/conformance/medplum-react/**/*.test.ts',
            ],
            // Each file's server opens a copy of the same migrated PGlite template as the node tests.
            globalSetup: '<rootDir>/tests/setup/node-global-setup.ts',
          },
        ]
      : []),
  ],
};
