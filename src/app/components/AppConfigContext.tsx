// Hands the start-up configuration (API base URL) to every screen.
import { createContext, useContext, type ReactNode } from 'react';
import type { AppConfig } from '../config';

const AppConfigContext = createContext<AppConfig | undefined>(undefined);

export function AppConfigProvider({ config, children }: { config: AppConfig; children: ReactNode }) {
  return <AppConfigContext.Provider value={config}>{children}</AppConfigContext.Provider>;
}

export function useAppConfig(): AppConfig {
  const config = useContext(AppConfigContext);
  if (!config) throw new Error('useAppConfig must be used inside AppConfigProvider');
  return config;
}
