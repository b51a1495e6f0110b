// The app's providers around a router: theme, baseline styles and the start-up configuration.
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { RouterProvider, type createBrowserRouter } from 'react-router-dom';
import { AppConfigProvider } from './components/AppConfigContext';
import type { AppConfig } from './config';
import { theme } from './theme';

export interface AppProps {
  readonly config: AppConfig;
  readonly router: ReturnType<typeof createBrowserRouter>;
}

export function App({ config, router }: AppProps) {
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <AppConfigProvider config={config}>
        <RouterProvider router={router} />
      </AppConfigProvider>
    </ThemeProvider>
  );
}
