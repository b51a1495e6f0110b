// src/client must run in browsers and Node (issue #5): no Node built-ins, no React, and from
// src/fhir only outcomes.ts (the barrel pulls fhirpath and the definitions into browser bundles).
import fs from 'node:fs';
import path from 'node:path';
import { builtinModules } from 'node:module';

const dir = path.join(process.cwd(), 'src/client');
const files = fs.readdirSync(dir).filter((f) => f.endsWith('.ts'));
const nodeBuiltins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);

function importsOf(file: string): string[] {
  const text = fs.readFileSync(path.join(dir, file), 'utf8');
  return [...text.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)].map((m) => m[1]);
}

describe('src/client is browser-safe', () => {
  test('there are client modules to check', () => {
    expect(files).toEqual(
      expect.arrayContaining(['client.ts', 'token-manager.ts', 'request.ts', 'index.ts']),
    );
  });

  test.each(files)('%s imports no Node built-in, no React, and only outcomes from src/fhir', (file) => {
    for (const spec of importsOf(file)) {
      expect(nodeBuiltins.has(spec)).toBe(false);
      expect(spec).not.toMatch(/^react(-dom)?(\/|$)/);
      if (spec.startsWith('../')) {
        expect(spec).toBe('../fhir/outcomes');
      }
      if (!spec.startsWith('.')) {
        // Only type imports of FHIR resource shapes leave the folder.
        expect(spec).toBe('@medplum/fhirtypes');
      }
    }
  });

  test('no Buffer, process or require in client code', () => {
    for (const file of files) {
      const code = fs
        .readFileSync(path.join(dir, file), 'utf8')
        .replace(/\/\/.*$/gm, '')
        .replace(/\/\*[\s\S]*?\*\//g, '');
      expect({ file, uses: /\b(Buffer|process|require)\s*[.(]/.test(code) }).toEqual({ file, uses: false });
    }
  });
});
