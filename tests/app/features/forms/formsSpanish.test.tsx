// The forms show the data's own translations (the translation extension on `_title`, `_text`,
// `_display`) in the active language, and the Questionnaire's base texts in English: the form to answer,
// the list of forms and a past response (whose stored texts are the English the form had when sent).
import { act, screen, waitFor, within } from '@testing-library/react';
import { FormsPage } from '../../../../src/app/features/forms/FormsPage';
import { QuestionnairePage } from '../../../../src/app/features/forms/QuestionnairePage';
import { ResponsePage } from '../../../../src/app/features/forms/ResponsePage';
import { activateLocale } from '../../../../src/app/i18n/i18n';
import type { Locale } from '../../../../src/app/i18n/locale';
import { renderScreen } from '../../support/renderScreen';
import { epdsByUrlMock, epdsFormMock, epdsResponseMock, formsListMock } from './formsFixtures';

const TEXTS = {
  en: {
    title: 'Edinburgh Postnatal Depression Scale (EPDS)',
    first: 'I have been able to laugh and see the funny side of things',
    second: 'I have looked forward with enjoyment to things',
    calmest: 'As much as I always could',
    secondCalmest: 'As much as I ever did',
  },
  es: {
    title: 'Escala de Depresión Posnatal de Edimburgo (EPDS)',
    first: 'He sido capaz de reírme y ver el lado bueno de las cosas',
    second: 'He mirado el futuro con ilusión',
    calmest: 'Tanto como siempre',
    secondCalmest: 'Tanto como siempre',
  },
} as const;

afterEach(() => act(() => activateLocale('en')));

describe.each(['es', 'en'] as const)('forms in %s', (locale: Locale & keyof typeof TEXTS) => {
  const texts = TEXTS[locale];
  beforeEach(() => act(() => activateLocale(locale)));

  it("shows the questionnaire's title, item texts and answer displays from the data", async () => {
    renderScreen(<QuestionnairePage />, [epdsFormMock], {
      path: '/forms/epds',
      pattern: '/forms/:questionnaireId',
    });
    expect(await screen.findByRole('heading', { level: 1, name: texts.title })).toBeInTheDocument();
    const first = screen.getByRole('radiogroup', { name: `1. ${texts.first}` });
    expect(within(first).getByRole('radio', { name: texts.calmest })).toBeInTheDocument();
    expect(screen.getByRole('radiogroup', { name: `2. ${texts.second}` })).toBeInTheDocument();
  });

  it("lists the form and her past response by the form's title", async () => {
    renderScreen(<FormsPage />, [formsListMock], { path: '/forms', pattern: '/forms' });
    const links = await screen.findAllByRole('link', { name: texts.title });
    expect(links.map((link) => link.getAttribute('href'))).toEqual([
      '/forms/epds',
      '/forms/responses/r-epds',
    ]);
  });

  it("shows a past response's questions and coded answers as the form words them", async () => {
    renderScreen(<ResponsePage />, [epdsResponseMock, epdsByUrlMock], {
      path: '/forms/responses/r-epds',
      pattern: '/forms/responses/:responseId',
    });
    await waitFor(() =>
      expect(screen.getAllByRole('term').map((term) => term.textContent)).toEqual([
        texts.first,
        texts.second,
      ]),
    );
    const answers = screen.getAllByRole('definition').map((definition) => definition.textContent);
    expect(answers[0]).toBe(texts.calmest);
    expect(answers[1]).toBe(texts.secondCalmest);
  });
});
