// The Forms screens with their one GraphQL operation each: the list of the clinic's forms
// and her answers, named by the form they answer; a form read through QuestionnaireForm, answered and
// sent as a completed QuestionnaireResponse about and by Maria; the server's refusal shown in its words.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  FormsListDocument,
  QuestionnaireFormDocument,
  QuestionnaireResponseDetailDocument,
} from '../../../../src/graphql';
import { FormsPage } from '../../../../src/app/features/forms/FormsPage';
import { QuestionnairePage } from '../../../../src/app/features/forms/QuestionnairePage';
import { ResponsePage } from '../../../../src/app/features/forms/ResponsePage';
import { outcome } from '../../support/fakeApi';
import { answerWith } from './formsFixtures';
import { renderScreen, type ScreenMock } from '../../support/renderScreen';

const URL = 'https://bloom.example/fhir/Questionnaire/pregnancy-intake';

const formsList: ScreenMock = {
  request: { query: FormsListDocument, variables: { patient: 'Patient/maria-1' } },
  result: {
    data: {
      questionnaires: {
        __typename: 'ResourceSearchResult',
        resources: [
          {
            resourceType: 'Questionnaire',
            id: 'intake',
            url: URL,
            version: '1',
            status: 'active',
            title: 'Pregnancy intake',
            name: 'Intake',
            description: 'Before your first visit.',
          },
        ],
      },
      QuestionnaireResponseList: [
        {
          __typename: 'QuestionnaireResponse',
          resourceType: 'QuestionnaireResponse',
          id: 'r1',
          questionnaire: `${URL}|1`,
          status: 'completed',
          authored: '2026-10-01T10:00:00Z',
        },
      ],
    },
  },
};

const questionnaireForm: ScreenMock = {
  request: { query: QuestionnaireFormDocument, variables: { search: '_id=intake' } },
  result: {
    data: {
      ResourceSearch: {
        __typename: 'ResourceSearchResult',
        resources: [
          {
            resourceType: 'Questionnaire',
            id: 'intake',
            url: URL,
            version: '1',
            status: 'active',
            title: 'Pregnancy intake',
            name: 'Intake',
            description: 'Before your first visit.',
            item: [
              { linkId: 'lmp', text: 'Last period', type: 'date', required: true },
              { linkId: 'count', text: 'Pregnancies before', type: 'integer' },
            ],
          },
        ],
      },
    },
  },
};

describe('Forms list', () => {
  it("lists the clinic's forms as links and her answers by form, date and status", async () => {
    renderScreen(<FormsPage />, [formsList], { path: '/forms', pattern: '/forms' });
    const forms = await screen.findByRole('list', { name: 'Forms to fill in' });
    expect(within(forms).getByRole('link', { name: 'Pregnancy intake' })).toHaveAttribute(
      'href',
      '/forms/intake',
    );
    expect(within(forms).getByText('Before your first visit.')).toBeInTheDocument();
    const answers = screen.getByRole('list', { name: 'Your answers' });
    expect(within(answers).getByRole('link', { name: 'Pregnancy intake' })).toHaveAttribute(
      'href',
      '/forms/responses/r1',
    );
    expect(within(answers).getByText('Submitted')).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Forms · Bloom'));
  });
});

describe('Answering a form', () => {
  it('sends a completed QuestionnaireResponse about and by Maria, naming the form by its url', async () => {
    const { api, router } = renderScreen(<QuestionnairePage />, [questionnaireForm], {
      path: '/forms/intake',
      pattern: '/forms/:questionnaireId',
    });
    await screen.findByRole('heading', { level: 1, name: 'Pregnancy intake' });
    api.once('POST fhir/R4/QuestionnaireResponse', 201, { resourceType: 'QuestionnaireResponse', id: 'new' });
    fireEvent.change(screen.getByLabelText('Last period', { exact: false }), {
      target: { value: '2026-06-01' },
    });
    fireEvent.change(screen.getByLabelText('Pregnancies before'), { target: { value: '1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send answers' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/forms'));
    const [sent] = api.bodiesOf('POST fhir/R4/QuestionnaireResponse') as Record<string, unknown>[];
    expect(sent).toMatchObject({
      resourceType: 'QuestionnaireResponse',
      questionnaire: URL,
      status: 'completed',
      subject: { reference: 'Patient/maria-1' },
      author: { reference: 'Patient/maria-1' },
      item: [
        { linkId: 'lmp', text: 'Last period', answer: [{ valueDate: '2026-06-01' }] },
        { linkId: 'count', text: 'Pregnancies before', answer: [{ valueInteger: 1 }] },
      ],
    });
    expect(router.state.location.state).toMatchObject({ sent: 'Pregnancy intake' });
  });

  it("shows the server's refusal in its own words and stays on the form", async () => {
    const { api, router } = renderScreen(<QuestionnairePage />, [questionnaireForm], {
      path: '/forms/intake',
      pattern: '/forms/:questionnaireId',
    });
    await screen.findByRole('heading', { level: 1, name: 'Pregnancy intake' });
    api.once('POST fhir/R4/QuestionnaireResponse', 400, outcome("'Last period' (lmp) is required"));
    fireEvent.change(screen.getByLabelText('Last period', { exact: false }), {
      target: { value: '2026-06-01' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Send answers' }));
    expect(await screen.findByText("'Last period' (lmp) is required")).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/forms/intake');
    expect(screen.getByRole('button', { name: 'Send answers' })).toBeEnabled();
  });
});

describe('One sent form', () => {
  it('shows each question with her answers in words, sections as groups', async () => {
    const detail: ScreenMock = {
      request: { query: QuestionnaireResponseDetailDocument, variables: { id: 'r1' } },
      result: {
        data: {
          QuestionnaireResponse: {
            __typename: 'QuestionnaireResponse',
            resourceType: 'QuestionnaireResponse',
            id: 'r1',
            questionnaire: URL,
            status: 'completed',
            authored: '2026-10-01T10:00:00Z',
            item: [
              {
                __typename: 'QuestionnaireResponseItem',
                linkId: 'smokes',
                text: 'Do you smoke?',
                answer: [answerWith({ valueBoolean: false })],
                item: null,
              },
              {
                __typename: 'QuestionnaireResponseItem',
                linkId: 'symptoms',
                text: 'Symptoms',
                answer: [
                  answerWith({ valueCoding: { system: 'urn:s', code: 'n', display: 'Nausea' } }),
                  answerWith({ valueString: 'Tiredness' }),
                ],
                item: null,
              },
              {
                __typename: 'QuestionnaireResponseItem',
                linkId: 'contact',
                text: 'Emergency contact',
                answer: null,
                item: [
                  {
                    __typename: 'QuestionnaireResponseItem',
                    linkId: 'phone',
                    text: 'Phone number',
                    answer: [answerWith({ valueString: '555-0100' })],
                    item: null,
                  },
                ],
              },
            ],
          },
        },
      },
    };
    // The form it answers is gone: the stored texts show.
    const formGone: ScreenMock = {
      request: { query: QuestionnaireFormDocument, variables: { search: `url=${encodeURIComponent(URL)}` } },
      result: { data: { ResourceSearch: { __typename: 'ResourceSearchResult', resources: [] } } },
    };
    renderScreen(<ResponsePage />, [detail, formGone], {
      path: '/forms/responses/r1',
      pattern: '/forms/responses/:responseId',
    });
    await screen.findByRole('heading', { level: 1, name: 'Your answers' });
    const terms = screen.getAllByRole('term').map((term) => term.textContent);
    const definitions = screen.getAllByRole('definition').map((definition) => definition.textContent);
    expect(terms).toEqual(['Do you smoke?', 'Symptoms', 'Emergency contact', 'Phone number']);
    expect(definitions).toContain('No');
    expect(definitions).toContain('Nausea, Tiredness');
    expect(definitions).toContain('555-0100');
    expect(screen.getByText('Submitted')).toBeInTheDocument();
  });
});
