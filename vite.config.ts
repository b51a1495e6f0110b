// Builds the React app (src/app) into dist/app, which the server's app host serves.
import fs from 'node:fs';
import path from 'node:path';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import react from '@vitejs/plugin-react';
import { transform as transformTs } from 'esbuild';
import { defineConfig, type Plugin } from 'vite';
import { deferredGridParts } from './scripts/deferred-grid-parts';

const OPERATIONS = path.resolve('src/graphql/generated/operations.ts');
const GRAPHQL_MODULES = new Set([OPERATIONS, path.resolve('src/graphql/index.ts')]);
const DOCUMENT_MODULE = '\0bloom-graphql-document:';
const DOCUMENT_LINE = /^export const (\w+) = (\{.*\}) as unknown as DocumentNode<.*>;$/;
const NAMED_IMPORT = /import\s*\{([^}]*)\}\s*from\s*(["'])([^"']+)\2;?/g;

/**
 * Each GraphQL document of the generated operations module as a module of its own, imported straight
 * by the screens that run it, so a screen's chunk carries only its own documents. Through the
 * operations module (which the signed-in chunk re-exports), all ~40 documents rode in the chunk every
 * signed-in screen loads. A document imported some other way is missing from operations.ts here, so
 * the build fails rather than silently bundling it.
 */
function graphqlDocumentPerModule(): Plugin {
  const documents = new Map<string, string>();
  return {
    name: 'bloom-graphql-document-per-module',
    apply: 'build',
    buildStart() {
      documents.clear();
      for (const line of fs.readFileSync(OPERATIONS, 'utf8').split('\n')) {
        const match = DOCUMENT_LINE.exec(line);
        if (match) documents.set(match[1], match[2]);
      }
      if (documents.size === 0) this.error(`no GraphQL documents found in ${OPERATIONS}`);
    },
    resolveId: (source) => (source.startsWith(DOCUMENT_MODULE) ? source : null),
    load(id) {
      if (id.startsWith(DOCUMENT_MODULE)) {
        const name = id.slice(DOCUMENT_MODULE.length);
        const document = documents.get(name);
        if (document === undefined) this.error(`no GraphQL document ${name} in operations.ts`);
        return `export const ${name} = ${document};`;
      }
      if (id !== OPERATIONS) return null;
      return fs
        .readFileSync(id, 'utf8')
        .split('\n')
        .filter((line) => !DOCUMENT_LINE.test(line))
        .join('\n');
    },
    async transform(code, id) {
      if (id.includes('node_modules') || id.startsWith('\0') || GRAPHQL_MODULES.has(id)) return null;
      const replacements: [string, string][] = [];
      for (const [statement, names, , source] of code.matchAll(NAMED_IMPORT)) {
        const resolved = await this.resolve(source, id);
        if (!resolved || !GRAPHQL_MODULES.has(resolved.id)) continue;
        const specifiers = names
          .split(',')
          .map((name) => name.trim())
          .filter(Boolean);
        const isDocument = (specifier: string) => documents.has(specifier.split(/\s+as\s+/)[0]);
        const rest = specifiers.filter((specifier) => !isDocument(specifier));
        const imports = specifiers
          .filter(isDocument)
          .map(
            (specifier) =>
              `import { ${specifier} } from '${DOCUMENT_MODULE}${specifier.split(/\s+as\s+/)[0]}';`,
          );
        if (imports.length === 0) continue;
        if (rest.length > 0) imports.push(`import { ${rest.join(', ')} } from '${source}';`);
        // On as many lines as the statement had, so the code below keeps its place in the source map.
        replacements.push([statement, imports.join(' ') + '\n'.repeat(statement.split('\n').length - 1)]);
      }
      if (replacements.length === 0) return null;
      const rewritten = replacements.reduce((result, [from, to]) => result.replace(from, to), code);
      return { code: rewritten, map: null };
    },
  };
}

const MESSAGE_CATALOG = /[\\/]src[\\/]app[\\/].*[\\/]strings(\.es)?\.ts$/;

/**
 * An ICU message as Lingui's compiled token list. Plain text compiles to a bare string, which the runtime
 * takes for an uncompiled message (it warns on each use): wrap it in a list of one token.
 */
function compiledTokens(message: string): unknown {
  const compiled = compileMessage(message);
  return typeof compiled === 'string' ? [compiled] : compiled;
}

/** A catalog's value with every ICU string compiled: descriptors' `message`, Spanish catalogs' values. */
function compileCatalogValue(value: unknown): unknown {
  if (typeof value === 'string') return compiledTokens(value);
  if (typeof value !== 'object' || value === null) return value;
  if ('id' in value && 'message' in value && typeof value.message === 'string') {
    return { id: value.id, message: compiledTokens(value.message) };
  }
  return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, compileCatalogValue(entry)]));
}

/**
 * The message catalogs (src/app/i18n/catalog.ts) compiled at build time, as Lingui's runtime expects in
 * production: the ICU parser (~6 KB brotli) stays out of the browser. A catalog holds data only, so it
 * is evaluated here as it stands and printed back as JSON.
 */
function compiledMessageCatalogs(): Plugin {
  return {
    name: 'bloom-compiled-message-catalogs',
    apply: 'build',
    async transform(code, id) {
      if (!MESSAGE_CATALOG.test(id)) return null;
      const { code: js } = await transformTs(code, { loader: 'ts', format: 'esm' });
      if (/^\s*import\s/m.test(js)) this.error(`${id}: a message catalog may import types only`);
      const exported = (await import(
        `data:text/javascript;base64,${Buffer.from(js).toString('base64')}`
      )) as Record<string, unknown>;
      const lines = Object.entries(exported).map(([name, value]) => {
        const json = JSON.stringify(compileCatalogValue(value));
        return name === 'default' ? `export default ${json};` : `export const ${name} = ${json};`;
      });
      return { code: lines.join('\n'), map: null };
    },
  };
}

export default defineConfig({
  root: 'src/app',
  // Static files (illustration, favicon) copied as-is; they are same-origin, so a strict CSP allows them.
  publicDir: 'public',
  plugins: [react(), graphqlDocumentPerModule(), compiledMessageCatalogs(), deferredGridParts()],
  build: {
    outDir: '../../dist/app',
    emptyOutDir: true,
    // One bundle file per entry: no inline module-preload polyfill script to trip the CSP.
    modulePreload: { polyfill: false },
    sourcemap: true,
    // React + MUI + React Router alone are ~540 kB (~170 kB gzipped); warn only beyond that.
    chunkSizeWarningLimit: 700,
    // Route-level splitting (for the per-screen on-wire budgets): React and the router, which every page
    // needs, are one long-cached file; the first screen's code is one more; the client and the signed-in
    // frame are one file each; every other library (MUI parts, charts, the grid) goes to the chunks of the
    // routes that import it, so the landing page downloads only what it renders.
    rolldownOptions: {
      preserveEntrySignatures: false,
      output: {
        codeSplitting: {
          groups: [
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/,
              priority: 3,
            },
            // What the first screen renders (theme, layout, landing page): one file instead of ~20.
            { name: 'shell', tags: ['$initial'], priority: 2 },
            // The platform client, which sign-in and every signed-in screen load.
            {
              name: 'client',
              test: /[\\/]src[\\/](client[\\/]|app[\\/]session[\\/]createAppClient)/,
              priority: 1,
            },
            // The signed-in frame every signed-in screen loads: Apollo and the GraphQL layer, the navigation
            // and the user menu. Their MUI dependencies stay out of it (sign-in shares some of them). The
            // subscription socket (graphql-ws, Apollo's link to it, src/graphql/ws-link) stays out too: it is
            // imported on a screen's first subscription (LazyWsLink), and most screens have none.
            {
              name: 'signed-in',
              test: /node_modules[\\/](@apollo[\\/](?!client[\\/]link[\\/]subscriptions)|graphql[\\/]|rxjs[\\/]|optimism[\\/]|@wry[\\/]|tslib[\\/])|[\\/]src[\\/](graphql[\\/](?!ws-link)|app[\\/]session[\\/]SignedInGraphql|app[\\/]components[\\/](MainNav|UserMenu))/,
              includeDependenciesRecursively: false,
              priority: 1,
            },
            // The MUI controls of the signed-in frame (its navigation list and buttons), which sign-in and
            // most screens use too: one shared file. Left to the inlining below, each user got its own copy,
            // so a health-record screen downloaded Button and the list items twice.
            {
              name: 'controls',
              test: /node_modules[\\/]@mui[\\/](material[\\/](Button|ButtonBase|List|ListItem|ListItemButton|ListItemText|useMediaQuery)|system[\\/]useMediaQuery)[\\/]/,
              priority: 1,
            },
          ],
          // Small shared chunks are inlined into their users: each file costs its HTTP headers, and brotli
          // compresses one larger file better than several small ones.
          experimentalInlineCommonChunks: { maxSize: 40000 },
        },
      },
    },
  },
  server: { port: 3000, strictPort: true },
  preview: { port: 3000, strictPort: true },
});
