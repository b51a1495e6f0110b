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
    // Route-level splitting (for the per-screen JavaScript budgets): React and the router, which every page
    // needs, are one long-cached file; every other library (MUI parts, Apollo, charts) goes to the chunks of
    // the routes that import it, so the landing page downloads only what it renders.
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [{ name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/ }],
        },
      },
    },
  },
  server: { port: 3000, strictPort: true },
  preview: { port: 3000, strictPort: true },
});
