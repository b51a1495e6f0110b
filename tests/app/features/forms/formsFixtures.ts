// The forms screens' GraphQL answers built from the seed's EPDS Questionnaire (the data's Spanish rides
// on its `_title`, `_text` and `_display`): the list with one form and one past response, the form, and
// that response as the server stores it (the English texts the form had when she sent it).
import type { Questionnaire } from '@medplum/fhirtypes';
import { EPDS_QUESTIONNAIRE_URL } from '../../../../src/fhir/screening/epds';
import {
  FormsListDocument,
  QuestionnaireFormDocument,
  QuestionnaireResponseDetailDocument,
} from '../../../../src/graphql';
import {
  buildEpdsQuestionnaire,
  EPDS_ITEMS,
  epdsAnswer,
  epdsLinkId,
} from '../../../../src/server/seed/demo/epds-questionnaire';
import type { ScreenMock } from '../../support/renderScreen';

export const epds: Questionnaire = { ...buildEpdsQuestionnaire('2026-01-05T12:00:00Z'), id: 'epds' };

const searchResult = (resources: unknown[]) => ({ __typename: 'ResourceSearchResult', resources });

export const formsListMock: ScreenMock = {
  request: { query: FormsListDocument, variables: { patient: 'Patient/maria-1' } },
  result: {
    data: {
      questionnaires: searchResult([epds]),
      QuestionnaireResponseList: [
        {
          __typename: 'QuestionnaireResponse',
          resourceType: 'QuestionnaireResponse',
          id: 'r-epds',
          questionnaire: `${EPDS_QUESTIONNAIRE_URL}|1`,
          status: 'completed',
          authored: '2026-10-01T10:00:00Z',
        },
      ],
    },
  },
};

export const epdsFormMock: ScreenMock = {
  request: { query: QuestionnaireFormDocument, variables: { search: '_id=epds' } },
  result: { data: { ResourceSearch: searchResult([epds]) } },
};

/** The form a past response names, read by its canonical URL. */
export const epdsByUrlMock: ScreenMock = {
  request: {
    query: QuestionnaireFormDocument,
    variables: { search: `url=${encodeURIComponent(EPDS_QUESTIONNAIRE_URL)}` },
  },
  result: { data: { ResourceSearch: searchResult([epds]) } },
};

/** An answer as the typed query returns it: every value[x] null but the one given. */
export function answerWith(value: Record<string, unknown>) {
  return { ...noValue, ...value };
}

const noValue = {
  valueBoolean: null,
  valueDecimal: null,
  valueInteger: null,
  valueDate: null,
  valueDateTime: null,
  valueTime: null,
  valueString: null,
  valueUri: null,
  valueCoding: null,
  valueQuantity: null,
  valueReference: null,
};

/** Her answers to the first two EPDS items (the calmest), with the form's English texts. */
export const epdsResponseMock: ScreenMock = {
  request: { query: QuestionnaireResponseDetailDocument, variables: { id: 'r-epds' } },
  result: {
    data: {
      QuestionnaireResponse: {
        __typename: 'QuestionnaireResponse',
        resourceType: 'QuestionnaireResponse',
        id: 'r-epds',
        questionnaire: `${EPDS_QUESTIONNAIRE_URL}|1`,
        status: 'completed',
        authored: '2026-10-01T10:00:00Z',
        item: [1, 2].map((n) => {
          const { system, code, display } = epdsAnswer(n, 0);
          return {
            __typename: 'QuestionnaireResponseItem',
            linkId: epdsLinkId(n),
            text: EPDS_ITEMS[n - 1]?.text ?? null,
            answer: [
              {
                __typename: 'QuestionnaireResponseItemAnswer',
                ...noValue,
                valueCoding: { __typename: 'Coding', system, code, display },
              },
            ],
            item: null,
          };
        }),
      },
    },
  },
};
