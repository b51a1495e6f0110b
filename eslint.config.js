import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// The layers of docs/architecture.md, as import zones: each entry says what a folder may never import.
// app → graphql → client → fhir; server → fhir; the agent (an on-premise program that talks to the
// server as a client) sits beside the app on top of client → fhir. Nothing imports the agent.
const layers = [
  {
    target: './src/fhir',
    from: ['client', 'graphql', 'server', 'app', 'agent'],
    why: 'src/fhir is the pure bottom layer',
  },
  {
    target: './src/client',
    from: ['app', 'graphql', 'server', 'agent'],
    why: 'the client knows no UI and no server',
  },
  { target: './src/graphql', from: ['app', 'server', 'agent'], why: 'the GraphQL layer sits under the app' },
  {
    target: './src/server',
    from: ['client', 'graphql', 'app', 'agent'],
    why: 'the server stands on src/fhir alone',
  },
  {
    target: './src/agent',
    from: ['app', 'graphql', 'server'],
    why: 'the agent uses the client, as any program would',
  },
  { target: './src/app', from: ['server', 'agent'], why: 'the app reaches the server over HTTP only' },
];

// Features never import each other: shared pieces live in src/app/components (or session/, api/), and
// src/app/routes.tsx composes features. Those shared folders import no feature either.
const features = readdirSync(new URL('./src/app/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const zones = [
  ...layers.map(({ target, from, why }) => ({
    target,
    from: from.map((layer) => `./src/${layer}`),
    message: `${why} (see "Layers" in the README).`,
  })),
  ...features.map((feature) => ({
    target: `./src/app/features/${feature}`,
    from: './src/app/features',
    except: [`./${feature}`],
    message:
      'Features never import each other: move the shared piece to src/app/components, or compose in routes.tsx.',
  })),
  // Access rules are a leaf: repo/ and search/ both stand on them, so search never needs repo/.
  {
    target: './src/server/access',
    from: './src/server',
    except: ['./access'],
    message: 'src/server/access is a leaf: it imports no other server module.',
  },
  {
    target: './src/server/search',
    from: './src/server/repo',
    message: 'search never imports repo (repo calls search): shared access rules live in src/server/access.',
  },
  {
    target: './src/server/graphql',
    from: './src/server/live',
    message: 'The GraphQL schema never imports live/ (live/ serves the schema over graphql-ws).',
  },
  {
    target: './src/server/binary',
    from: './src/server/fhir',
    message: 'binary/ never imports the REST module fhir/ (fhir/ signs attachment URLs through binary/).',
  },
  {
    target: ['./src/app/components', './src/app/session', './src/app/api'],
    from: './src/app/features',
    message: 'Shared app code imports no feature: routes.tsx composes features.',
  },
];

export default tseslint.config(
  { ignores: ['dist/**', 'data/**', 'coverage/**', '**/generated/**', 'node_modules/**', '.tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    plugins: { 'import-x': importX },
    settings: {
      // Read .ts/.tsx modules too (with typescript-eslint's parser), or no-cycle never follows them.
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs', '.cjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
      // One lint run reads each module once; no-cycle walks the graph from every file.
      'import-x/cache': { lifetime: Infinity },
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones }],
      // Type-only imports are not cycles at run time; import-x skips them.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    files: ['src/app/**/*.{ts,tsx}', 'tests/app/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
