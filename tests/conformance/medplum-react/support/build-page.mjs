// Builds the medplum-react test page (../page) with Vite's build API into the directory given as the
// first argument. Run by page-build.ts in a child process: Vite is ESM-only and jest runs CommonJS.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { build } from 'vite';

const outDir = process.argv[2];
if (!outDir) throw new Error('usage: node build-page.mjs <outDir>');

await build({
  configFile: false,
  root: path.join(path.dirname(fileURLToPath(import.meta.url)), '../page'),
  logLevel: 'warn',
  // The production builds of React and Mantine, as an app built from Medplum's packages ships.
  mode: 'production',
  plugins: [react()],
  build: {
    outDir,
    emptyOutDir: true,
    // One page with Medplum's whole component library: ~2 MB of JavaScript is expected here.
    chunkSizeWarningLimit: 4000,
    reportCompressedSize: false,
    // @medplum/react 5.2.13's styles.css keeps a Sass-style `@media (max-width: $mantine-breakpoint-xs)`
    // (Header_userName) that Lightning CSS refuses to minify; browsers just skip that rule.
    cssMinify: false,
  },
});
