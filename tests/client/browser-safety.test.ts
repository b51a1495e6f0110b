// src/client must run in browsers and Node: no Node built-ins, no React, and of src/fhir
// only pure modules: the barrel (src/fhir/index.ts) pulls fhirpath into browser bundles, so every
// module the client reaches, directly or through others, is checked for what it imports at runtime.
import fs from 'node:fs';
import path from 'node:path';
import { builtinModules } from 'node:module';

const root = process.cwd();
const clientDir = path.join(root, 'src/client');
const files = fs.readdirSync(clientDir).filter((f) => f.endsWith('.ts'));
const nodeBuiltins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);

interface ImportSpec {
  spec: string;
  typeOnly: boolean;
}

function importsOf(file: string): ImportSpec[] {
  const text = fs.readFileSync(file, 'utf8');
  const specs: ImportSpec[] = [];
  for (const m of text.matchAll(/^\s*(import|export)\s+(type\s+)?[^'";]*?from\s*'([^']+)'/gm)) {
    specs.push({ spec: m[3], typeOnly: m[2] !== undefined });
  }
  for (const m of text.matchAll(/^\s*import\s*'([^']+)'/gm)) {
    specs.push({ spec: m[1], typeOnly: false });
  }
  for (const m of text.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g)) {
    specs.push({ spec: m[1], typeOnly: false });
  }
  return specs;
}

function resolveRelative(from: string, spec: string): string {
  const base = path.resolve(path.dirname(from), spec);
  for (const candidate of [`${base}.ts`, path.join(base, 'index.ts')]) {
    if (fs.existsSync(candidate)) {
      return candidate;
    }
  }
  throw new Error(`cannot resolve ${spec} from ${from}`);
}

/** Every TS module reached at runtime from the client's modules (type-only imports do not count). */
function runtimeClosure(): Set<string> {
  const seen = new Set<string>();
  const queue = files.map((f) => path.join(clientDir, f));
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (seen.has(file)) {
      continue;
    }
    seen.add(file);
    for (const { spec, typeOnly } of importsOf(file)) {
      if (spec.startsWith('.') && !typeOnly) {
        queue.push(resolveRelative(file, spec));
      }
    }
  }
  return seen;
}

describe('src/client is browser-safe', () => {
  test('there are client modules to check', () => {
    expect(files).toEqual(
      expect.arrayContaining(['client.ts', 'token-manager.ts', 'request.ts', 'index.ts', 'fhir-client.ts']),
    );
  });

  test.each(files)('%s imports no Node built-in, no React, and never the src/fhir barrel', (file) => {
    for (const { spec, typeOnly } of importsOf(path.join(clientDir, file))) {
      expect(nodeBuiltins.has(spec)).toBe(false);
      expect(spec).not.toMatch(/^react(-dom)?(\/|$)/);
      expect(spec).not.toMatch(/^\.\.\/fhir\/?$/);
      if (!spec.startsWith('.')) {
        // Only type imports of FHIR resource shapes leave the folder.
        expect({ spec, typeOnly }).toEqual({ spec: '@medplum/fhirtypes', typeOnly: true });
      }
    }
  });

  test('every module the client reaches at runtime imports only relative modules (no fhirpath, no node:, no barrel)', () => {
    const closure = [...runtimeClosure()].map((f) => path.relative(root, f));
    // The reach is known and small: the client's own modules plus a few pure src/fhir modules.
    const outside = closure.filter((f) => !f.startsWith('src/client/')).sort();
    expect(outside).toEqual(
      expect.arrayContaining(['src/fhir/outcomes.ts', 'src/fhir/references.ts', 'src/fhir/search/format.ts']),
    );
    expect(outside).not.toContain('src/fhir/index.ts');
    for (const file of closure) {
      for (const { spec, typeOnly } of importsOf(path.join(root, file))) {
        if (!spec.startsWith('.')) {
          expect({ file, spec, typeOnly }).toEqual({ file, spec, typeOnly: true });
        }
      }
    }
  });

  test('no Buffer, process or require in client code', () => {
    for (const file of files) {
      const code = fs
        .readFileSync(path.join(clientDir, file), 'utf8')
        .replace(/\/\/.*$/gm, '')
        .replace(/\/\*[\s\S]*?\*\//g, '');
      expect({ file, uses: /\b(Buffer|process|require)\s*[.(]/.test(code) }).toEqual({ file, uses: false });
    }
  });
});
