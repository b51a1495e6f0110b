// Home signed in (SPEC §2 "/"): greeting by name, 'Send Message' → /messages, the four
// pregnancy-information cards, and where the pregnancy stands / what is next from HomeSummary.
import { screen } from '@testing-library/react';
import { HomeSummaryDocument } from '../../../../src/graphql';
import { HomePage } from '../../../../src/app/features/home/HomePage';
import { pregnancyProgress } from '../../../../src/app/features/home/pregnancyProgress';
import { maria } from '../../support/fakeApi';
import { renderScreen, type ScreenMock } from '../../support/renderScreen';

const now = new Date('2026-06-01T12:00:00Z');
const variables = {
  patient: 'Patient/maria-1',
  from: `ge${now.toISOString()}`,
  after: `gt${now.toISOString()}`,
};

function summary(data: Record<string, unknown>): ScreenMock {
  return {
    request: { query: HomeSummaryDocument, variables },
    result: {
      data: { dueDate: { edges: [] }, nextAppointment: { edges: [] }, nextVaccine: { edges: [] }, ...data },
    },
  };
}

describe('SPEC §2 home', () => {
  it('greets by name, Send Message goes to /messages, four pregnancy cards link out', async () => {
    renderScreen(<HomePage profile={maria} now={now} />, [summary({})]);
    expect(screen.getByRole('heading', { level: 1, name: 'Hello Maria' })).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'Send Message' })).toHaveAttribute('href', '/messages');
    for (const title of ['First trimester', 'Second trimester', 'Third trimester', 'Labor and delivery']) {
      const card = screen.getByRole('link', { name: new RegExp(title) });
      expect(card.getAttribute('href')).toMatch(/^https:\/\//);
      expect(card).toHaveAttribute('target', '_blank');
    }
  });

  it('shows weeks and due date, the next appointment and the next vaccine when the record holds them', async () => {
    renderScreen(<HomePage profile={maria} now={now} />, [
      summary({
        dueDate: {
          edges: [
            {
              resource: {
                __typename: 'Observation',
                resourceType: 'Observation',
                id: 'edd',
                valueDateTime: '2026-07-13',
              },
            },
          ],
        },
        nextAppointment: {
          edges: [
            {
              resource: {
                __typename: 'Appointment',
                resourceType: 'Appointment',
                id: 'ap',
                status: 'booked',
                start: '2026-06-05T15:00:00Z',
                description: '36-week visit',
              },
            },
          ],
        },
        nextVaccine: {
          edges: [
            {
              resource: {
                __typename: 'Immunization',
                resourceType: 'Immunization',
                id: 'tdap',
                status: 'not-done',
                vaccineCode: { text: 'Tdap' },
                occurrenceDateTime: '2026-06-05T15:00:00Z',
              },
            },
          ],
        },
      }),
    ]);
    expect(await screen.findByText('34 weeks 0 days · trimester 3')).toBeInTheDocument();
    expect(screen.getByText('36-week visit')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Tdap' })).toHaveAttribute(
      'href',
      '/health-record/vaccines/tdap',
    );
  });

  it('nothing in the record: no summary cards', async () => {
    renderScreen(<HomePage profile={maria} now={now} />, [summary({})]);
    await screen.findByRole('link', { name: 'Send Message' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('region', { name: 'Next appointment' })).not.toBeInTheDocument();
  });

  it('a failed summary shows its error but keeps the greeting and cards', async () => {
    renderScreen(<HomePage profile={maria} now={now} />, [
      { request: { query: HomeSummaryDocument, variables }, error: new Error('Boom') },
    ]);
    expect(await screen.findByRole('alert')).toHaveTextContent('Boom');
    expect(screen.getByRole('link', { name: /First trimester/ })).toBeInTheDocument();
  });
});

describe('pregnancy progress from the due date', () => {
  it('280 days before the due date is 0 weeks; the due date is 40 weeks', () => {
    expect(pregnancyProgress('2026-07-13', new Date('2025-10-06T08:00:00Z'))).toEqual({
      weeks: 0,
      days: 0,
      trimester: 1,
    });
    expect(pregnancyProgress('2026-07-13', new Date('2026-07-13T08:00:00Z'))).toEqual({
      weeks: 40,
      days: 0,
      trimester: 3,
    });
    expect(pregnancyProgress('2026-07-13', new Date('2026-02-01T00:00:00Z'))?.trimester).toBe(2);
  });
  it('a past due date, one beyond 40 weeks or garbage gives nothing', () => {
    expect(pregnancyProgress('2026-07-13', new Date('2026-07-14T08:00:00Z'))).toBeUndefined();
    expect(pregnancyProgress('2026-07-13', new Date('2025-10-01T08:00:00Z'))).toBeUndefined();
    expect(pregnancyProgress('soon', now)).toBeUndefined();
  });
});
