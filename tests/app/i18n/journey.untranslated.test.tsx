// The journey's screens show no English in Spanish (the scan: ../support/untranslated.ts): the
// timeline with a plan whose steps the data translates, and with no plan; the forms list, a
// questionnaire with its validation errors shown, a past response; the screening's calm message after a
// high score; the kick count empty, with its history chart, and with a count the server refused.
import { fireEvent, screen } from '@testing-library/react';
import { FormsPage } from '../../../src/app/features/forms/FormsPage';
import { QuestionnairePage } from '../../../src/app/features/forms/QuestionnairePage';
import { ResponsePage } from '../../../src/app/features/forms/ResponsePage';
import { formsStrings } from '../../../src/app/features/forms/strings';
import { PregnancyTimelinePage } from '../../../src/app/features/journey/PregnancyTimelinePage';
import { KickCountPage } from '../../../src/app/features/kick-count/KickCountPage';
import { kickCountStrings } from '../../../src/app/features/kick-count/strings';
import { ScreeningResultPage } from '../../../src/app/features/screening/ScreeningResultPage';
import { activeLocale, translate } from '../../../src/app/i18n/i18n';
import { KickCountsDocument, PregnancyTimelineDocument, ScreeningResultDocument } from '../../../src/graphql';
import { spanish } from '../../../src/server/seed/demo/translation';
import {
  epdsByUrlMock,
  epdsFormMock,
  epdsResponseMock,
  formsListMock,
} from '../features/forms/formsFixtures';
import { renderScreen, type ScreenMock } from '../support/renderScreen';
import { describeUntranslated, type ScreenCase } from '../support/untranslated';
import { clinicPatient, dueDate } from '../support/journeyFixtures';

const now = new Date('2026-06-01T12:00:00Z');
const MINUTE = 60_000;

/** A required field's mark, the clinic's name and phone, the emergency and crisis lines, the server's refusal. */
const SAME_IN_BOTH = ['*', 'Bloom Clinic', '+1 555 0100', '911', '988', 'Invalid resource'];

const noObservation = { __typename: 'ObservationConnection', edges: [] };

// --- Timeline -------------------------------------------------------------------------------------

/** A plan step as $apply copies it from the PlanDefinition: its name and words with their Spanish. */
function step(
  text: string,
  es: string,
  start: string,
  end: string,
  status = 'not-started',
  done: string[] = [],
) {
  return {
    outcomeReference: done.map((reference) => ({ reference })),
    detail: {
      status,
      description: `${text}, in plain words`,
      _description: spanish(`${es}, en palabras sencillas`),
      code: { text, _text: spanish(es) },
      scheduledPeriod: { start, end },
    },
  };
}

const plan = {
  resourceType: 'CarePlan',
  id: 'plan',
  status: 'active',
  intent: 'plan',
  title: 'Pregnancy care plan',
  instantiatesCanonical: ['https://bloom.example/fhir/PlanDefinition/pregnancy-care'],
  activity: [
    step('Anatomy scan', 'Ecografía morfológica', '2026-02-01', '2026-03-01', 'completed', [
      'DiagnosticReport/scan',
    ]),
    step('Tdap vaccine', 'Vacuna Tdap', '2026-04-15', '2026-06-15', 'completed', ['Immunization/tdap']),
    step('Glucose test', 'Prueba de glucosa', '2026-03-20', '2026-05-01'),
    step('GBS swab', 'Hisopado de EGB', '2026-06-20', '2026-06-27'),
  ],
};

function timeline(plans: unknown[]): ScreenMock {
  return {
    request: {
      query: PregnancyTimelineDocument,
      variables: {
        patient: 'Patient/maria-1',
        carePlans: 'patient=Patient%2Fmaria-1&status=active&_sort=-_lastUpdated&_count=10',
      },
    },
    result: {
      data: {
        dueDate: dueDate('2026-07-13'),
        lastPeriod: noObservation,
        carePlans: { __typename: 'ResourceSearchResult', resources: plans },
      },
    },
  };
}

// --- Screening and kick count ---------------------------------------------------------------------

const highScore: ScreenMock = {
  request: {
    query: ScreeningResultDocument,
    variables: { response: 'QuestionnaireResponse/r-epds', patient: 'maria-1' },
  },
  result: {
    data: {
      ObservationList: [{ __typename: 'Observation', id: 'score', valueInteger: 15, component: [] }],
      Patient: clinicPatient,
    },
  },
};

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

function kickCounts(counts: ReturnType<typeof count>[]): ScreenMock {
  return {
    request: { query: KickCountsDocument, variables: { patient: 'Patient/maria-1', patientId: 'maria-1' } },
    result: {
      data: {
        dueDate: dueDate('2026-08-01'),
        lastPeriod: noObservation,
        counts: { edges: counts },
        Patient: clinicPatient,
      },
    },
  };
}

const COUNTS = [count('kc-2', 10, '2026-05-31T09:00:00Z', 31), count('kc-1', 6, '2026-05-30T09:00:00Z', 120)];

// --------------------------------------------------------------------------------------------------

const SCREENS: readonly ScreenCase[] = [
  {
    name: 'the timeline with the plan the data translates',
    render: () => renderScreen(<PregnancyTimelinePage now={now} />, [timeline([plan])]),
    ready: () => screen.findAllByText(/Hisopado de EGB|GBS swab/),
  },
  {
    name: 'the timeline with no plan',
    render: () => renderScreen(<PregnancyTimelinePage now={now} />, [timeline([])]),
    ready: () => screen.findAllByText(/34/),
  },
  {
    name: 'the forms list with a past response',
    render: () => renderScreen(<FormsPage />, [formsListMock], { path: '/forms', pattern: '/forms' }),
    ready: () => screen.findAllByRole('link', { name: /EPDS/ }),
  },
  {
    name: 'a questionnaire with its validation errors shown',
    render: () =>
      renderScreen(<QuestionnairePage />, [epdsFormMock], {
        path: '/forms/epds',
        pattern: '/forms/:questionnaireId',
      }),
    ready: async () => {
      fireEvent.click(await screen.findByRole('button', { name: translate(formsStrings.send) }));
      return screen.findAllByRole('alert');
    },
  },
  {
    name: 'a past response',
    render: () =>
      renderScreen(<ResponsePage />, [epdsResponseMock, epdsByUrlMock], {
        path: '/forms/responses/r-epds',
        pattern: '/forms/responses/:responseId',
      }),
    // The form's texts replace the response's stored (English) ones when the form comes.
    ready: () => screen.findByText(activeLocale() === 'es' ? /reírme/ : /laugh/),
  },
  {
    name: 'the screening after a high score',
    render: () =>
      renderScreen(<ScreeningResultPage />, [highScore], {
        path: '/screening/r-epds',
        pattern: '/screening/:responseId',
      }),
    ready: () => screen.findByRole('link', { name: '+1 555 0100' }),
  },
  {
    name: 'the kick count with no counts',
    render: () => renderScreen(<KickCountPage now={now} />, [kickCounts([])]),
    ready: () => screen.findByRole('button', { name: translate(kickCountStrings.start) }),
  },
  {
    name: 'the kick count with its history chart',
    render: () => renderScreen(<KickCountPage now={now} />, [kickCounts(COUNTS)]),
    ready: () => screen.findByRole('img'),
  },
  {
    name: 'the kick count with a count the server refused',
    render: () => {
      const { api } = renderScreen(<KickCountPage now={now} />, [kickCounts([])]);
      api.once('POST fhir/R4/Observation', 400, {
        resourceType: 'OperationOutcome',
        issue: [{ severity: 'error', code: 'invalid', details: { text: 'Invalid resource' } }],
      });
    },
    ready: async () => {
      fireEvent.click(await screen.findByRole('button', { name: translate(kickCountStrings.start) }));
      fireEvent.click(screen.getByRole('button', { name: translate(kickCountStrings.stop) }));
      return screen.findByRole('button', { name: translate(kickCountStrings.tryAgain) }, { timeout: 10_000 });
    },
  },
];

describeUntranslated('the journey shows no English in Spanish', SCREENS, SAME_IN_BOTH);
