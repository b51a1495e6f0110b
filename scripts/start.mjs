// `npm start`: build what is missing, then run the server bundle (API + app host) in this process.
// `npm run dev`: the same server restarted on change (tsx watch) beside Vite's dev server.
import { spawn, spawnSync } from 'node:child_process';

const dev = process.argv.includes('--dev');

if (dev) {
  const build = spawnSync(process.execPath, ['scripts/build.mjs', '--only=fhir'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
  const apiPort = process.env.PORT ?? '8103';
  const appPort = process.env.APP_PORT ?? '3000';
  const children = [
    spawn('npx', ['tsx', 'watch', 'src/server/main.ts'], {
      stdio: 'inherit',
      // Vite serves the app on APP_PORT in dev; the server's own app host moves to a free port.
      env: {
        ...process.env,
        APP_PORT: '0',
        APP_ORIGINS: process.env.APP_ORIGINS ?? `http://localhost:${appPort},http://127.0.0.1:${appPort}`,
      },
    }),
    spawn('npx', ['vite', '--config', 'vite.config.ts', '--port', appPort, '--strictPort'], {
      stdio: 'inherit',
      env: { ...process.env, VITE_API_BASE_URL: `http://localhost:${apiPort}/` },
    }),
  ];
  const stop = () => children.forEach((child) => child.kill('SIGTERM'));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  children.forEach((child) => child.on('exit', (code) => code && process.exit(code)));
} else {
  // The build runs in this process (no second Node start-up); it reads no arguments from `npm start`
  // and exits the process when a step fails.
  await import('./build.mjs');
  // One process: Ctrl-C reaches the server's own shutdown handler directly. The build bundled the
  // server into plain JavaScript (scripts/build-server.mjs), so nothing is transpiled at start.
  process.setSourceMapsEnabled(true);
  await import('../dist/server/main.mjs');
}
