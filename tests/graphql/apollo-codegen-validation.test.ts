// CI validates every operation against the schema snapshot (SPEC Design card "CI validating
// operations against the schema snapshot"): the codegen check that `npm run typecheck` runs exits
// non-zero for an operation with an unknown field or a wrong argument, naming file, line and column,
// and exits 0 for the committed operations (whose generated file is up to date).
import { spawn } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const CODEGEN = join(ROOT, 'node_modules', '.bin', 'graphql-codegen');

interface Run {
  code: number | null;
  output: string;
}

/** `graphql-codegen --config codegen.ts --check` as package.json's typecheck runs it. */
function codegenCheck(operations?: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    // Jest sets NODE_ENV=test, which makes the codegen CLI print nothing; CI runs it without.
    const env: NodeJS.ProcessEnv = { ...process.env, CI: '1', NODE_ENV: 'production' };
    if (operations) {
      env.BLOOM_OPERATIONS = operations;
    } else {
      delete env.BLOOM_OPERATIONS;
    }
    const child = spawn(CODEGEN, ['--config', 'codegen.ts', '--check'], { cwd: ROOT, env });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

const TIMEOUT = 240_000;

test(
  'an operation with an unknown field or a wrong argument makes the validation exit non-zero with file:line:column; the committed operations pass',
  async () => {
    const [bad, good] = await Promise.all([
      codegenCheck('tests/graphql/fixtures/invalid-operations/*.graphql'),
      codegenCheck(),
    ]);
    expect(bad.code).not.toBe(0);
    expect(bad.output).toContain('Cannot query field "bogusField" on type "Communication".');
    expect(bad.output).toMatch(/invalid-operations\/BadField\.graphql:5:5/);
    expect(bad.output).toContain('Unknown argument "subjekt" on field "QueryType.CommunicationList".');
    expect(bad.output).toMatch(/invalid-operations\/BadArgument\.graphql:3:21/);

    expect(good.output).not.toContain('Cannot query field');
    expect(good.code).toBe(0);
  },
  TIMEOUT,
);
