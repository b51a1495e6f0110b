// The app's languages and how one is picked: the patient's saved choice (Patient.communication),
// else the browser's (navigator.languages), else English.
export const LOCALES = ['en', 'es'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

/** The BCP-47 code system of Patient.communication.language. */
export const BCP47_SYSTEM = 'urn:ietf:bcp:47';

/** The supported locale a BCP-47 tag asks for ('es-MX' → 'es'), or undefined. */
export function supportedLocale(tag: string | undefined): Locale | undefined {
  const base = tag?.trim().toLowerCase().split(/[-_]/)[0];
  return LOCALES.find((locale) => locale === base);
}

/** The first of the browser's languages the app speaks. */
export function browserLocale(languages: readonly string[] | undefined): Locale {
  for (const tag of languages ?? []) {
    const locale = supportedLocale(tag);
    if (locale) return locale;
  }
  return DEFAULT_LOCALE;
}

/** Each locale's name in its own language, for the switch. */
export const LOCALE_NAMES: Record<Locale, string> = { en: 'English', es: 'Español' };
