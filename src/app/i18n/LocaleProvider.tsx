// Provides the active language to every screen: starts in the device's last choice or the browser's
// language, then follows the signed-in patient's saved language (Patient.communication).
import { I18nProvider, useLingui } from '@lingui/react';
import { useCallback, useEffect, type ReactNode } from 'react';
import type { Message } from './catalog';
import { activateLocale, activeLocale, i18n, initialLocale } from './i18n';
import { supportedLocale, type Locale } from './locale';

export function LocaleProvider({ children }: { children: ReactNode }) {
  useEffect(() => {
    void activateLocale(initialLocale());
  }, []);
  return <I18nProvider i18n={i18n}>{children}</I18nProvider>;
}

export type Translate = (message: Message, values?: Record<string, unknown>) => string;

/** The translate function of the active language; components using it re-render when it changes. */
export function useT(): Translate {
  const { _ } = useLingui();
  return useCallback(
    (message: Message, values?: Record<string, unknown>) =>
      _({ id: message.id, message: message.message, values }),
    [_],
  );
}

/** The active locale (re-renders on a switch). */
export function useLocale(): Locale {
  const { i18n: active } = useLingui();
  return supportedLocale(active.locale) ?? activeLocale();
}
