// The active language for components: useT and useLocale follow the one Lingui instance (i18n.ts), so
// a switch re-renders every translated component without a context provider. LocaleProvider starts
// the app in the device's last choice or the browser's language.
import { useCallback, useEffect, useSyncExternalStore, type ReactNode } from 'react';
import type { Message } from './catalog';
import { activateLocale, activeLocale, i18n, initialLocale, translate } from './i18n';
import type { Locale } from './locale';

export function LocaleProvider({ children }: { children: ReactNode }) {
  useEffect(() => {
    void activateLocale(initialLocale());
  }, []);
  return children;
}

const subscribe = (onChange: () => void) => i18n.on('change', onChange);

/** The active locale (re-renders on a switch). */
export function useLocale(): Locale {
  return useSyncExternalStore(subscribe, activeLocale, activeLocale);
}

export type Translate = (message: Message, values?: Record<string, unknown>) => string;

/** The translate function of the active language; a new one after each switch. */
export function useT(): Translate {
  const locale = useLocale();
  // eslint-disable-next-line react-hooks/exhaustive-deps -- a new function per locale re-renders users
  return useCallback<Translate>((message, values) => translate(message, values), [locale]);
}
