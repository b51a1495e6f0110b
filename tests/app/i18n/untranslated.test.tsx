// The shell and home show no English in Spanish (the scan: ../support/untranslated.ts).
import { act, fireEvent, screen } from '@testing-library/react';
import type { ReactElement } from 'react';
import { Footer } from '../../../src/app/components/Footer';
import { Header } from '../../../src/app/components/Header';
import { NotFoundPanel } from '../../../src/app/components/NotFoundPanel';
import { NotificationsProvider } from '../../../src/app/components/Notifications';
import { HomePage } from '../../../src/app/features/home/HomePage';
import { activateLocale } from '../../../src/app/i18n/i18n';
import { HomeSummaryDocument } from '../../../src/graphql';
import { maria } from '../support/fakeApi';
import { spanish } from '../../../src/server/seed/demo/translation';
import { renderScreen, type ScreenMock } from '../support/renderScreen';
import { describeUntranslated, type ScreenCase } from '../support/untranslated';

const now = new Date('2026-06-01T12:00:00Z');

const SAME_IN_BOTH = ['Maria', 'M', 'Tdap', '36-week visit'];

function homeSummary(withDueDate: boolean): ScreenMock {
  const iso = now.toISOString();
  const edges = <T,>(resource: T) => [{ resource }];
  return {
    request: {
      query: HomeSummaryDocument,
      variables: {
        patient: 'Patient/maria-1',
        from: `ge${iso}`,
        after: `gt${iso}`,
        carePlans: 'patient=Patient%2Fmaria-1&status=active&_sort=-_lastUpdated&_count=10',
      },
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
        carePlans: {
          __typename: 'ResourceSearchResult',
          resources: [
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
                    // The step's Spanish travels in the data (FHIR's translation extension).
                    code: { text: 'GBS swab', _text: spanish('Hisopado de estreptococo del grupo B') },
                    scheduledPeriod: { start: '2026-05-20', end: '2026-06-27' },
                  },
                },
              ],
            },
          ],
        },
      },
    },
  };
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

describeUntranslated('translated screens show no English in Spanish', SCREENS, SAME_IN_BOTH);

describe('the page language', () => {
  it('sets <html lang> to the active language', async () => {
    await act(() => activateLocale('es'));
    expect(document.documentElement.lang).toBe('es');
    await act(() => activateLocale('en'));
    expect(document.documentElement.lang).toBe('en');
  });
});
