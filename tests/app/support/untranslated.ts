// The scan behind the "no English in Spanish" tests: each screen is rendered in English and in Spanish,
// and any text (text nodes, accessible labels, the page title) the Spanish rendering shares with the
// English one fails, except names, numbers, dates, the brand and data values the test names.
import { act, cleanup } from '@testing-library/react';
import { activateLocale } from '../../../src/app/i18n/i18n';
import type { Locale } from '../../../src/app/i18n/locale';

export interface ScreenCase {
  readonly name: string;
  readonly render: () => void;
  /** Waits until the screen has all it will show. */
  readonly ready: () => Promise<unknown>;
}

/** Strings that are the same in both languages by nature. */
const ALWAYS_SAME = new Set(['Bloom']);
const NUMBERS_AND_PUNCTUATION = /^[\d\s.,:;/·()–-]*$/;

/** The visible strings of the page: text nodes, accessible names given by attributes, the title. */
export function visibleStrings(): Set<string> {
  const strings = new Set<string>();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent?.trim();
    if (text) strings.add(text);
  }
  for (const element of document.body.querySelectorAll('[aria-label],[title],[placeholder]')) {
    for (const name of ['aria-label', 'title', 'placeholder']) {
      const value = element.getAttribute(name)?.trim();
      if (value) strings.add(value);
    }
  }
  for (const title of document.querySelectorAll('title')) {
    const text = title.textContent?.trim();
    if (text) strings.add(text);
  }
  return strings;
}

async function renderIn(locale: Locale, screenCase: ScreenCase): Promise<Set<string>> {
  await act(() => activateLocale(locale));
  screenCase.render();
  await screenCase.ready();
  const strings = visibleStrings();
  cleanup();
  return strings;
}

/**
 * One test per screen: the Spanish rendering shows no string of the English one, except `sameInBoth`
 * (names and data values of the fixtures), the brand, numbers and punctuation.
 */
export function describeUntranslated(
  title: string,
  screens: readonly ScreenCase[],
  sameInBoth: Iterable<string> = [],
): void {
  const allowed = new Set([...ALWAYS_SAME, ...sameInBoth]);
  describe(title, () => {
    afterAll(() => activateLocale('en'));
    it.each(screens.map((screenCase) => [screenCase.name, screenCase] as const))(
      '%s',
      async (_, screenCase) => {
        const english = await renderIn('en', screenCase);
        const spanish = await renderIn('es', screenCase);
        const untranslated = [...spanish].filter(
          (text) => english.has(text) && !allowed.has(text) && !NUMBERS_AND_PUNCTUATION.test(text),
        );
        expect(untranslated).toEqual([]);
        // The Spanish rendering is not empty: the scan really saw the screen.
        expect(spanish.size).toBeGreaterThan(3);
      },
    );
  });
}
