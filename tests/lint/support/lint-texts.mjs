// Lints in-memory sources as if they sat at the given paths, with the repository's own eslint.config.js,
// through ESLint's Node API. Reads [{ filePath, code }] as JSON on stdin, writes
// [{ filePath, messages: [{ ruleId, message }] }] on stdout. A child process, because the flat config is
// an ES module and jest's CommonJS sandbox cannot import it.
import { ESLint } from 'eslint';

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const probes = JSON.parse(Buffer.concat(chunks).toString('utf8'));

const eslint = new ESLint({ cwd: process.cwd() });
const results = [];
for (const { filePath, code } of probes) {
  const [result] = await eslint.lintText(code, { filePath });
  results.push({ filePath, messages: result.messages.map(({ ruleId, message }) => ({ ruleId, message })) });
}
process.stdout.write(JSON.stringify(results));
