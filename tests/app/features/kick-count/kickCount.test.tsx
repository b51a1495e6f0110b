// The kick count (/pregnancy/kicks): from 28 weeks she counts movements to ten; the count is saved as
// an Observation (LOINC 57088-7, effectivePeriod the counting time); a low count or one stopped early
// tells her to call her clinic now; a failed save keeps the count with a way to try again.
import type { Observation } from '@medplum/fhirtypes';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { KickCountsDocument } from '../../../../src/graphql';
import { KickCountPage } from '../../../../src/app/features/kick-count/KickCountPage';
import {
  countSummary,
  isReduced,
  kickCountObservation,
} from '../../../../src/app/features/kick-count/kickCount';
import { KickCounter } from '../../../../src/app/features/kick-count/KickCounter';
import { translate } from '../../../../src/app/i18n/i18n';
import { renderScreen, type ScreenMock } from '../../support/renderScreen';
import { clinicPatient, dueDate } from '../../support/journeyFixtures';

const today = new Date('2026-06-01T12:00:00Z');
const MINUTE = 60_000;

function count(id: string, movements: number, start: string, minutes: number) {
  return {
    resource: {
      __typename: 'Observation',
      resourceType: 'Observation',
      id,
      valueQuantity: { value: movements },
      effectivePeriod: { start, end: new Date(Date.parse(start) + minutes * MINUTE).toISOString() },
    },
  };
}

function kickCounts(due: string | undefined, counts: ReturnType<typeof count>[] = []): ScreenMock {
  return {
    request: { query: KickCountsDocument, variables: { patient: 'Patient/maria-1', patientId: 'maria-1' } },
    result: {
      data: {
        dueDate: due ? dueDate(due) : { __typename: 'ObservationConnection', edges: [] },
        lastPeriod: { __typename: 'ObservationConnection', edges: [] },
        counts: { edges: counts },
        Patient: clinicPatient,
      },
    },
  };
}

const clinic = { name: 'Bloom Clinic', phone: '+1 555 0100' };

describe('kick count rules', () => {
  it('ten within two hours is reassuring; fewer, or ten only after two hours, is not', () => {
    const start = '2026-06-01T10:00:00Z';
    expect(isReduced(10, start, '2026-06-01T12:00:00Z')).toBe(false);
    expect(isReduced(9, start, '2026-06-01T10:30:00Z')).toBe(true);
    expect(isReduced(10, start, '2026-06-01T12:00:01Z')).toBe(true);
  });

  it('is an Observation of fetal movement with the count and the counting time', () => {
    const start = new Date('2026-06-01T10:00:00Z');
    const end = new Date('2026-06-01T10:23:00Z');
    expect(kickCountObservation('Patient/maria-1', 10, start, end)).toMatchObject({
      resourceType: 'Observation',
      status: 'preliminary',
      code: { coding: [{ system: 'http://loinc.org', code: '57088-7' }], text: 'Kick count' },
      subject: { reference: 'Patient/maria-1' },
      effectivePeriod: { start: start.toISOString(), end: end.toISOString() },
      valueQuantity: { value: 10, unit: 'movements' },
    });
  });

  it('says counts and minutes in words', () => {
    expect(countSummary(translate, 1, 1)).toBe('1 movement in 1 minute');
    expect(countSummary(translate, 10, 23)).toBe('10 movements in 23 minutes');
  });
});

describe('kick count screen', () => {
  it('before 28 weeks says when counting starts, and offers no counter', async () => {
    // Due 98 days after 2026-06-01: 280 - 98 = 182 days, 26 weeks.
    renderScreen(<KickCountPage now={today} />, [kickCounts('2026-09-07')]);
    expect(
      await screen.findByText(/Kick counting starts at 28 weeks\. You are 26 weeks pregnant\./),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Start counting' })).not.toBeInTheDocument();
  });

  it('without a due date asks her care team, and offers no counter', async () => {
    renderScreen(<KickCountPage now={today} />, [kickCounts(undefined)]);
    expect(await screen.findByText(/We don't know your due date yet/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Start counting' })).not.toBeInTheDocument();
  });

  it('from 28 weeks she counts to ten; the count is saved and her list reads it again', async () => {
    const saved = count('kc-new', 10, '2026-06-01T10:00:00Z', 23);
    const older = count('kc-1', 10, '2026-05-31T09:00:00Z', 31);
    const { api } = renderScreen(<KickCountPage now={today} />, [
      kickCounts('2026-08-01', [older]),
      kickCounts('2026-08-01', [saved, older]),
    ]);
    api.once('POST fhir/R4/Observation', 201, { resourceType: 'Observation', id: 'kc-new' });
    const history = await screen.findByRole('list', { name: 'Your recent counts' });
    expect(within(history).getAllByRole('listitem')).toHaveLength(1);

    fireEvent.click(screen.getByRole('button', { name: 'Start counting' }));
    for (let i = 0; i < 9; i += 1) fireEvent.click(screen.getByRole('button', { name: 'I felt a movement' }));
    expect(screen.getByRole('status')).toHaveTextContent('9 of 10 movements');
    fireEvent.click(screen.getByRole('button', { name: 'I felt a movement' }));
    expect(
      await screen.findByText(/^Saved: 10 movements in \d+ minutes?\. Your baby is moving well\.$/),
    ).toBeInTheDocument();
    const [body] = api.bodiesOf('POST fhir/R4/Observation') as Observation[];
    expect(body).toMatchObject({ valueQuantity: { value: 10 }, code: { coding: [{ code: '57088-7' }] } });
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await screen.findByText(/10 movements in 23 minutes/);
    expect(
      within(screen.getByRole('list', { name: 'Your recent counts' })).getAllByRole('listitem'),
    ).toHaveLength(2);
    expect(
      screen.getByRole('img', { name: 'Minutes to count movements, oldest to newest: 31, 23' }),
    ).toBeInTheDocument();
  });
});

describe('kick counter', () => {
  it('stopped early, it saves what she counted and tells her whom to call now', async () => {
    let clock = new Date('2026-06-01T10:00:00Z');
    const { api } = renderScreen(
      <KickCounter patient="Patient/maria-1" clinic={clinic} now={() => clock} />,
      [],
    );
    api.once('POST fhir/R4/Observation', 201, { resourceType: 'Observation', id: 'kc-2' });
    fireEvent.click(await screen.findByRole('button', { name: 'Start counting' }));
    for (let i = 0; i < 4; i += 1) fireEvent.click(screen.getByRole('button', { name: 'I felt a movement' }));
    clock = new Date(clock.getTime() + 40 * MINUTE);
    fireEvent.click(screen.getByRole('button', { name: 'Stop and save' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('You stopped before 10 movements');
    expect(within(alert).getByRole('link', { name: '+1 555 0100' })).toHaveAttribute('href', 'tel:+15550100');
    expect(within(alert).getByRole('link', { name: '911' })).toHaveAttribute('href', 'tel:911');
    expect(await screen.findByText('Saved: 4 movements in 40 minutes.')).toBeInTheDocument();
    const [body] = api.bodiesOf('POST fhir/R4/Observation') as Observation[];
    expect(body.valueQuantity?.value).toBe(4);
    expect(Date.parse(body.effectivePeriod?.end ?? '') - Date.parse(body.effectivePeriod?.start ?? '')).toBe(
      40 * MINUTE,
    );
  });

  it('two hours end the count by themselves: saved, and marked as fewer than ten in two hours', async () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    try {
      let clock = new Date('2026-06-01T10:00:00Z');
      const { api } = renderScreen(
        <KickCounter patient="Patient/maria-1" clinic={clinic} now={() => clock} />,
        [],
      );
      api.once('POST fhir/R4/Observation', 201, { resourceType: 'Observation', id: 'kc-3' });
      fireEvent.click(await screen.findByRole('button', { name: 'Start counting' }));
      for (let i = 0; i < 6; i += 1)
        fireEvent.click(screen.getByRole('button', { name: 'I felt a movement' }));
      clock = new Date(clock.getTime() + 60 * MINUTE);
      act(() => void jest.advanceTimersByTime(15_000));
      expect(screen.getByRole('status')).toHaveTextContent('6 of 10 movements · 60 min');
      expect(api.bodiesOf('POST fhir/R4/Observation')).toHaveLength(0);
      clock = new Date(clock.getTime() + 60 * MINUTE);
      act(() => void jest.advanceTimersByTime(15_000));
      expect(await screen.findByRole('alert')).toHaveTextContent('Fewer than 10 movements in 2 hours');
      expect(api.bodiesOf('POST fhir/R4/Observation')).toHaveLength(1);
    } finally {
      jest.useRealTimers();
    }
  });

  it('a failed save keeps the count on screen and sends it again when asked', async () => {
    let clock = new Date('2026-06-01T10:00:00Z');
    const { api } = renderScreen(
      <KickCounter patient="Patient/maria-1" clinic={clinic} now={() => clock} />,
      [],
    );
    // A refusal the client does not retry by itself (it retries 5xx and network errors).
    api.once('POST fhir/R4/Observation', 400, {
      resourceType: 'OperationOutcome',
      issue: [{ severity: 'error', code: 'invalid', details: { text: 'Invalid resource' } }],
    });
    api.once('POST fhir/R4/Observation', 201, { resourceType: 'Observation', id: 'kc-4' });
    fireEvent.click(await screen.findByRole('button', { name: 'Start counting' }));
    clock = new Date(clock.getTime() + 12 * MINUTE);
    for (let i = 0; i < 10; i += 1)
      fireEvent.click(screen.getByRole('button', { name: 'I felt a movement' }));
    const failed = await screen.findByRole('alert', {}, { timeout: 10_000 });
    expect(failed).toHaveTextContent('10 movements in 12 minutes: not saved yet.');
    fireEvent.click(within(failed).getByRole('button', { name: 'Try again' }));
    expect(
      await screen.findByText('Saved: 10 movements in 12 minutes. Your baby is moving well.'),
    ).toBeInTheDocument();
    const bodies = api.bodiesOf('POST fhir/R4/Observation') as Observation[];
    expect(bodies).toHaveLength(2);
    expect(bodies[1]).toEqual(bodies[0]);
  }, 20_000);
});
