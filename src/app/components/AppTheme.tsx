// Bloom's theme and baseline styles around the app. MUI's ThemeProvider also carries the CSS-variables
// provider (colour-scheme storage, an init script) for themes built with colour schemes, which Bloom's
// theme is not; the system provider renders the same theme without it, about 3 KB gzip lighter on
// every page.
import CssBaseline from '@mui/material/CssBaseline';
import { THEME_ID } from '@mui/material/styles';
import { ThemeProvider } from '@mui/system';
import type { ReactNode } from 'react';
import { theme } from '../theme';

export function AppTheme({ children }: { children: ReactNode }) {
  return (
    <ThemeProvider theme={theme} themeId={THEME_ID}>
      <CssBaseline />
      {children}
    </ThemeProvider>
  );
}
