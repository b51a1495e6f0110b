// Browser entry: learn the API base URL (/config.json), then render the app.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { browserAppRouter } from './appRouter';
import { loadAppConfig } from './config';
import { appRoutes } from './routes';
import { StartupError } from './StartupError';

// Under `vite dev` there is no app host writing /config.json; scripts/start.mjs passes the API URL instead.
const devFallback = import.meta.env.DEV
  ? ((import.meta.env.VITE_API_BASE_URL as string | undefined) ?? 'http://localhost:8103/')
  : undefined;

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
const root = createRoot(container);

loadAppConfig({ fallbackBaseUrl: devFallback }).then(
  (config) => {
    root.render(
      <StrictMode>
        <App config={config} router={browserAppRouter(appRoutes)} />
      </StrictMode>,
    );
  },
  (err: unknown) => {
    root.render(<StartupError message={err instanceof Error ? err.message : String(err)} />);
  },
);
