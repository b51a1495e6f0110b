// Builds the React app (src/app) into dist/app, which the server's app host serves (issue #2 item 6).
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
    // Libraries change less often than the app: a separate vendor file stays cached across app releases.
    rolldownOptions: {
      // The charts (MUI X with its d3 copy) stay with the vitals screen's chunk, not every route (issue #7).
      output: {
        codeSplitting: {
          groups: [{ name: 'vendor', test: /node_modules[\\/](?!@mui[\\/]x-|d3-|flatqueue|bezier-easing)/ }],
        },
      },
    },
  },
  server: { port: 3000, strictPort: true },
  preview: { port: 3000, strictPort: true },
});
