// Every visible string of the translated screens changes in Spanish: each screen is rendered in English
// and in Spanish, and any text (text nodes, accessible labels, the page title) the Spanish rendering
// shares with the English one fails, except names, numbers, dates, the brand and data values.
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import type { ReactElement } from 'react';
import { Footer } from '../../../src/app/components/Footer';
import { Header } from '../../../src/app/components/Header';
import { NotFoundPanel } from '../../../src/app/components/NotFoundPanel';
import { NotificationsProvider } from '../../../src/app/components/Notifications';
import { HomePage } from '../../../src/app/features/home/HomePage';
import { activateLocale } from '../../../src/app/i18n/i18n';
import type { Locale } from '../../../src/app/i18n/locale';
import { HomeSummaryDocument } from '../../../src/graphql';
import { maria } from '../support/fakeApi';
import { renderScreen, type ScreenMock } from '../support/renderScreen';

const now = new Date('2026-06-01T12:00:00Z');

/** Strings that are the same in both languages by nature: names, the brand, data values. */
const SAME_IN_BOTH = new Set(['Bloom', 'Maria', 'M', 'Tdap', '36-week visit', 'GBS swab']);
const NUMBERS_AND_PUNCTUATION = /^[\d\s.,:;/·()–-]*$/;

function homeSummary(withDueDate: boolean): ScreenMock {
  const iso = now.toISOString();
  const edges = <T,>(resource: T) => [{ resource }];
  return {
    request: {
      query: HomeSummaryDocument,
      variables: { patient: 'Patient/maria-1', from: `ge${iso}`, after: `gt${iso}` },
    },
    result: {
      data: {
        dueDate: {
          __typename: 'ObservationConnection',
          edges: withDueDate
            ? edges({
                __typename: 'Observation',
                resourceType: 'Observation',
                id: 'edd',
                valueDateTime: '2026-07-13',
              })
            : [],
        },
        lastPeriod: { __typename: 'ObservationConnection', edges: [] },
        nextAppointment: {
          edges: edges({
            __typename: 'Appointment',
            resourceType: 'Appointment',
            id: 'ap',
            status: 'booked',
            start: '2026-06-05T15:00:00Z',
            description: '36-week visit',
          }),
        },
        nextVaccine: {
          edges: edges({
            __typename: 'Immunization',
            resourceType: 'Immunization',
            id: 'tdap',
            status: 'not-done',
            vaccineCode: { text: 'Tdap' },
            occurrenceDateTime: '2026-06-05T15:00:00Z',
          }),
        },
        CarePlanList: [
          {
            __typename: 'CarePlan',
            resourceType: 'CarePlan',
            id: 'plan',
            instantiatesCanonical: ['https://bloom.example/fhir/PlanDefinition/pregnancy-care'],
            activity: [
              {
                outcomeReference: null,
                detail: {
                  status: 'not-started',
                  code: { text: 'GBS swab' },
                  scheduledPeriod: { start: '2026-05-20', end: '2026-06-27' },
                },
              },
            ],
          },
        ],
      },
    },
  };
}

/** The visible strings of the page: text nodes, accessible names given by attributes, the title. */
function visibleStrings(): Set<string> {
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

interface ScreenCase {
  readonly name: string;
  readonly render: () => void;
  /** Waits until the screen has all it will show. */
  readonly ready: () => Promise<unknown>;
}

const SCREENS: readonly ScreenCase[] = [
  {
    name: 'home with a due date, next step, appointment and vaccine',
    render: () => renderScreen(<HomePage profile={maria} now={now} />, [homeSummary(true)]),
    ready: () => screen.findByRole('link', { name: 'Tdap' }),
  },
  {
    name: 'home without a due date',
    render: () => renderScreen(<HomePage profile={maria} now={now} />, [homeSummary(false)]),
    ready: () => screen.findByRole('form'),
  },
  {
    name: 'header signed in, with the user menu open',
    render: () =>
      renderScreen(
        <NotificationsProvider>
          <Header />
        </NotificationsProvider>,
        [],
      ),
    ready: async () => {
      fireEvent.click(await screen.findByRole('button', { name: /Maria/ }));
      return screen.findAllByRole('menuitem');
    },
  },
  {
    name: 'not-found panel and footer',
    render: () => renderScreen(<Shell element={<NotFoundPanel />} />, []),
    ready: () => screen.findByRole('contentinfo'),
  },
  {
    name: 'not-found panel naming what is missing',
    render: () => renderScreen(<NotFoundPanel what="Foo" />, []),
    ready: () => screen.findByRole('link'),
  },
];

function Shell({ element }: { element: ReactElement }) {
  return (
    <>
      {element}
      <Footer />
    </>
  );
}

async function renderIn(locale: Locale, screenCase: ScreenCase): Promise<Set<string>> {
  await act(() => activateLocale(locale));
  screenCase.render();
  await screenCase.ready();
  const strings = visibleStrings();
  cleanup();
  return strings;
}

afterAll(() => activateLocale('en'));

describe('translated screens show no English in Spanish', () => {
  it.each(SCREENS.map((screenCase) => [screenCase.name, screenCase] as const))(
    '%s',
    async (_, screenCase) => {
      const english = await renderIn('en', screenCase);
      const spanish = await renderIn('es', screenCase);
      const untranslated = [...spanish].filter(
        (text) => english.has(text) && !SAME_IN_BOTH.has(text) && !NUMBERS_AND_PUNCTUATION.test(text),
      );
      expect(untranslated).toEqual([]);
      // The Spanish rendering is not empty: the scan really saw the screen.
      expect(spanish.size).toBeGreaterThan(3);
    },
  );

  it('sets <html lang> to the active language', async () => {
    await act(() => activateLocale('es'));
    expect(document.documentElement.lang).toBe('es');
    await act(() => activateLocale('en'));
    expect(document.documentElement.lang).toBe('en');
  });
});
