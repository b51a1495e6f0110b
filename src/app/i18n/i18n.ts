// The one Lingui instance of the app. English is active from the start (its messages are the catalogs'
// defaults, shipped with each feature); Spanish loads as one lazy chunk the first time it is chosen.
import { i18n } from '@lingui/core';
import type { Message } from './catalog';
import { browserLocale, DEFAULT_LOCALE, supportedLocale, type Locale } from './locale';

/** Where the last chosen language is kept, so the next visit starts in it before the profile loads. */
export const LOCALE_STORAGE_KEY = 'bloom.locale';

i18n.loadAndActivate({ locale: DEFAULT_LOCALE, messages: {} });

let spanish: Promise<void> | undefined;

function loadSpanish(): Promise<void> {
  spanish ??= import('./catalog.es').then(({ spanishMessages }) => i18n.load('es', spanishMessages));
  return spanish;
}

/** The active locale. */
export function activeLocale(): Locale {
  return supportedLocale(i18n.locale) ?? DEFAULT_LOCALE;
}

/** The language asked for last: a switch that waits for its catalog must not undo a later one. */
let requestedLocale: Locale = DEFAULT_LOCALE;

/** Switches the app's language (loading its catalog first) and the page's `<html lang>`. */
export async function activateLocale(locale: Locale): Promise<void> {
  requestedLocale = locale;
  if (locale === 'es') await loadSpanish();
  if (requestedLocale !== locale) return;
  if (i18n.locale !== locale) i18n.activate(locale);
  document.documentElement.lang = locale;
}

/** The language to start in: the last choice made on this device, else the browser's. */
export function initialLocale(): Locale {
  let stored: string | null = null;
  try {
    stored = localStorage.getItem(LOCALE_STORAGE_KEY);
  } catch {
    // Storage may be blocked (private mode): the browser's language still applies.
  }
  return supportedLocale(stored ?? undefined) ?? browserLocale(navigator.languages);
}

/** Remembers a choice on this device. */
export function rememberLocale(locale: Locale): void {
  try {
    localStorage.setItem(LOCALE_STORAGE_KEY, locale);
  } catch {
    // Not remembered on this device; the patient's record still has it.
  }
}

/** Translates outside React (e.g. a title computed in a loader). Prefer useT in components. */
export function translate(message: Message, values?: Record<string, unknown>): string {
  return i18n._({ id: message.id, message: message.message, values });
}

export { i18n };
