// Builds the React app (src/app) into dist/app, which the server's app host serves.
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  root: 'src/app',
  // Static files (illustration, favicon) copied as-is; they are same-origin, so a strict CSP allows them.
  publicDir: 'public',
  plugins: [react()],
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
            // and the user menu. Their MUI dependencies stay out of it (sign-in shares some of them).
            {
              name: 'signed-in',
              test: /node_modules[\\/](@apollo|graphql|rxjs|optimism|@wry|tslib|graphql-ws)[\\/]|[\\/]src[\\/](graphql[\\/]|app[\\/]session[\\/]SignedInGraphql|app[\\/]components[\\/](MainNav|UserMenu))/,
              includeDependenciesRecursively: false,
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
