// The questionnaire renderer: each item type as an accessible
// control, enableWhen showing and hiding questions, required questions and unreadable answers
// explained in plain words, and the QuestionnaireResponse items it hands over when the form is sent.
import type { Questionnaire, QuestionnaireItem, QuestionnaireResponseItem } from '@medplum/fhirtypes';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { QuestionnaireForm } from '../../../../src/app/features/forms/QuestionnaireForm';
import type { ExpandedValueSets } from '../../../../src/app/features/forms/QuestionnaireForm';

const TRIMESTERS = 'https://bloom.example/fhir/ValueSet/trimesters';

function form(item: QuestionnaireItem[]): Questionnaire {
  return { resourceType: 'Questionnaire', status: 'active', title: 'Test form', item };
}

function renderForm(questionnaire: Questionnaire, expanded?: ExpandedValueSets) {
  const sent: QuestionnaireResponseItem[][] = [];
  render(
    <QuestionnaireForm
      questionnaire={questionnaire}
      expanded={expanded}
      onSubmit={(items) => void sent.push(items)}
    />,
  );
  return { sent, send: () => fireEvent.click(screen.getByRole('button', { name: 'Send answers' })) };
}

const type = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label, { exact: false }), { target: { value } });

describe('QuestionnaireForm: each item type', () => {
  it('renders group, display, boolean, choice, integer, decimal, string, text and date, and sends typed answers', () => {
    const { sent, send } = renderForm(
      form([
        { linkId: 'intro', type: 'display', text: 'Answer what you can.' },
        {
          linkId: 'about',
          type: 'group',
          text: 'About you',
          item: [
            { linkId: 'name', type: 'string', text: 'Your name' },
            { linkId: 'notes', type: 'text', text: 'Anything else' },
          ],
        },
        { linkId: 'smokes', type: 'boolean', text: 'Do you smoke?' },
        {
          linkId: 'feeling',
          type: 'choice',
          text: 'How do you feel?',
          answerOption: [
            { valueCoding: { system: 'urn:mood', code: 'good', display: 'Good' } },
            { valueCoding: { system: 'urn:mood', code: 'low', display: 'Low' } },
          ],
        },
        { linkId: 'trimester', type: 'choice', text: 'Trimester', answerValueSet: TRIMESTERS },
        { linkId: 'pregnancies', type: 'integer', text: 'Pregnancies before' },
        { linkId: 'weight', type: 'decimal', text: 'Weight in kg' },
        { linkId: 'lmp', type: 'date', text: 'Last period' },
      ]),
      new Map([[TRIMESTERS, [{ system: 'urn:t', code: '2', display: 'Second' }]]]),
    );
    expect(screen.getByText('Answer what you can.')).toBeInTheDocument();
    const group = screen.getByRole('group', { name: 'About you' });
    expect(within(group).getByRole('textbox', { name: 'Your name' })).toBeInTheDocument();
    expect(within(group).getByRole('textbox', { name: 'Anything else' }).tagName).toBe('TEXTAREA');
    type('Your name', '  Maria ');
    type('Anything else', 'Line one\nline two');
    const smokes = screen.getByRole('radiogroup', { name: 'Do you smoke?' });
    fireEvent.click(within(smokes).getByRole('radio', { name: 'No' }));
    fireEvent.click(screen.getByRole('radio', { name: 'Low' }));
    fireEvent.click(
      within(screen.getByRole('radiogroup', { name: 'Trimester' })).getByRole('radio', { name: 'Second' }),
    );
    type('Pregnancies before', '2');
    type('Weight in kg', '71,5');
    expect(screen.getByLabelText('Last period')).toHaveAttribute('type', 'date');
    type('Last period', '2026-06-01');
    send();
    expect(sent).toEqual([
      [
        {
          linkId: 'about',
          text: 'About you',
          item: [
            { linkId: 'name', text: 'Your name', answer: [{ valueString: 'Maria' }] },
            { linkId: 'notes', text: 'Anything else', answer: [{ valueString: 'Line one\nline two' }] },
          ],
        },
        { linkId: 'smokes', text: 'Do you smoke?', answer: [{ valueBoolean: false }] },
        {
          linkId: 'feeling',
          text: 'How do you feel?',
          answer: [{ valueCoding: { system: 'urn:mood', code: 'low', display: 'Low' } }],
        },
        {
          linkId: 'trimester',
          text: 'Trimester',
          answer: [{ valueCoding: { system: 'urn:t', code: '2', display: 'Second' } }],
        },
        { linkId: 'pregnancies', text: 'Pregnancies before', answer: [{ valueInteger: 2 }] },
        { linkId: 'weight', text: 'Weight in kg', answer: [{ valueDecimal: 71.5 }] },
        { linkId: 'lmp', text: 'Last period', answer: [{ valueDate: '2026-06-01' }] },
      ],
    ]);
  });

  it('sends nothing for questions left empty, and leaves out an empty group', () => {
    const { sent, send } = renderForm(
      form([
        {
          linkId: 'g',
          type: 'group',
          text: 'Contact',
          item: [{ linkId: 'phone', type: 'string', text: 'Phone', required: true }],
        },
        { linkId: 'note', type: 'string', text: 'Note' },
      ]),
    );
    send();
    expect(sent).toEqual([[]]);
  });

  it('says when an answerValueSet cannot be expanded, instead of offering no choice', () => {
    renderForm(
      form([{ linkId: 'trimester', type: 'choice', text: 'Trimester', answerValueSet: TRIMESTERS }]),
      new Map([[TRIMESTERS, { problem: 'not expandable' }]]),
    );
    expect(screen.getByText('The choices for this question could not be loaded.')).toBeInTheDocument();
  });

  it('repeats: choice as checkboxes, and a text question with "Add another answer"', () => {
    const { sent, send } = renderForm(
      form([
        {
          linkId: 'symptoms',
          type: 'choice',
          text: 'Symptoms',
          repeats: true,
          answerOption: [
            { valueString: 'Nausea' },
            { valueString: 'Headache' },
            { valueString: 'Tiredness' },
          ],
        },
        { linkId: 'medicine', type: 'string', text: 'Medicine', repeats: true },
      ]),
    );
    const symptoms = screen.getByRole('group', { name: 'Symptoms' });
    fireEvent.click(within(symptoms).getByRole('checkbox', { name: 'Nausea' }));
    fireEvent.click(within(symptoms).getByRole('checkbox', { name: 'Tiredness' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Medicine' }), { target: { value: 'Folic acid' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add another answer to Medicine' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Medicine (answer 2)' }), {
      target: { value: 'Iron' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Add another answer to Medicine' }));
    fireEvent.click(screen.getByRole('button', { name: 'Remove answer 3 of Medicine' }));
    send();
    expect(sent).toEqual([
      [
        {
          linkId: 'symptoms',
          text: 'Symptoms',
          answer: [{ valueString: 'Nausea' }, { valueString: 'Tiredness' }],
        },
        {
          linkId: 'medicine',
          text: 'Medicine',
          answer: [{ valueString: 'Folic acid' }, { valueString: 'Iron' }],
        },
      ],
    ]);
  });
});

describe('QuestionnaireForm: enableWhen', () => {
  const questionnaire = form([
    { linkId: 'smokes', type: 'boolean', text: 'Do you smoke?' },
    {
      linkId: 'per-day',
      type: 'integer',
      text: 'Cigarettes a day',
      required: true,
      enableWhen: [{ question: 'smokes', operator: '=', answerBoolean: true }],
    },
    {
      linkId: 'quit-help',
      type: 'boolean',
      text: 'Would you like help to stop?',
      enableWhen: [{ question: 'per-day', operator: '>', answerInteger: 5 }],
    },
  ]);

  it('shows a question only while its condition holds, and never sends hidden answers', () => {
    const { sent, send } = renderForm(questionnaire);
    expect(screen.queryByLabelText('Cigarettes a day', { exact: false })).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('radio', { name: 'Yes' }));
    type('Cigarettes a day', '10');
    expect(screen.getByRole('radiogroup', { name: 'Would you like help to stop?' })).toBeInTheDocument();
    type('Cigarettes a day', '3');
    expect(
      screen.queryByRole('radiogroup', { name: 'Would you like help to stop?' }),
    ).not.toBeInTheDocument();
    type('Cigarettes a day', '10');
    fireEvent.click(
      within(screen.getByRole('radiogroup', { name: 'Would you like help to stop?' })).getByRole('radio', {
        name: 'Yes',
      }),
    );
    // Answering No hides the count, and with it the question that depended on the count.
    fireEvent.click(
      within(screen.getByRole('radiogroup', { name: 'Do you smoke?' })).getByRole('radio', { name: 'No' }),
    );
    expect(screen.queryByLabelText('Cigarettes a day', { exact: false })).not.toBeInTheDocument();
    expect(
      screen.queryByRole('radiogroup', { name: 'Would you like help to stop?' }),
    ).not.toBeInTheDocument();
    send();
    expect(sent).toEqual([[{ linkId: 'smokes', text: 'Do you smoke?', answer: [{ valueBoolean: false }] }]]);
  });

  it("enableBehavior 'any' and the 'exists' operator", () => {
    renderForm(
      form([
        { linkId: 'a', type: 'string', text: 'First' },
        { linkId: 'b', type: 'string', text: 'Second' },
        {
          linkId: 'either',
          type: 'display',
          text: 'Thanks for telling us.',
          enableBehavior: 'any',
          enableWhen: [
            { question: 'a', operator: 'exists', answerBoolean: true },
            { question: 'b', operator: 'exists', answerBoolean: true },
          ],
        },
      ]),
    );
    expect(screen.queryByText('Thanks for telling us.')).not.toBeInTheDocument();
    type('Second', 'x');
    expect(screen.getByText('Thanks for telling us.')).toBeInTheDocument();
  });
});

describe('QuestionnaireForm: required questions and plain-words messages', () => {
  it('refuses to send until required questions are answered, saying which, and marks them required', () => {
    const { sent, send } = renderForm(
      form([
        { linkId: 'lmp', type: 'date', text: 'Last period', required: true },
        { linkId: 'mood', type: 'boolean', text: 'Are you well?', required: true },
        { linkId: 'note', type: 'string', text: 'Note' },
      ]),
    );
    expect(screen.getByLabelText('Last period', { exact: false })).toBeRequired();
    send();
    expect(sent).toEqual([]);
    expect(screen.getByRole('alert')).toHaveTextContent(
      '2 answers need your attention before you can send the form.',
    );
    const lmp = screen.getByLabelText('Last period', { exact: false });
    expect(lmp).toHaveAttribute('aria-invalid', 'true');
    expect(lmp).toHaveAccessibleDescription('Please answer this question.');
    expect(screen.getByRole('radiogroup', { name: 'Are you well?' })).toHaveAccessibleDescription(
      'Please answer this question.',
    );
    type('Last period', '2026-06-01');
    fireEvent.click(screen.getByRole('radio', { name: 'Yes' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    send();
    expect(sent).toHaveLength(1);
  });

  it('explains a number it cannot read', () => {
    const { sent, send } = renderForm(
      form([
        { linkId: 'count', type: 'integer', text: 'How many?' },
        { linkId: 'kg', type: 'decimal', text: 'Weight' },
      ]),
    );
    type('How many?', 'two');
    type('Weight', '70kg');
    send();
    expect(sent).toEqual([]);
    expect(screen.getByLabelText('How many?')).toHaveAccessibleDescription('Enter a whole number, like 3.');
    expect(screen.getByLabelText('Weight')).toHaveAccessibleDescription('Enter a number, like 2.5.');
  });

  it('a required group asks for at least one answer; a required question in an optional group left empty is not asked', () => {
    const { sent, send } = renderForm(
      form([
        {
          linkId: 'must',
          type: 'group',
          text: 'Contact',
          required: true,
          item: [{ linkId: 'phone', type: 'string', text: 'Phone' }],
        },
        {
          linkId: 'may',
          type: 'group',
          text: 'Partner',
          item: [{ linkId: 'partner', type: 'string', text: 'Partner name', required: true }],
        },
      ]),
    );
    send();
    expect(sent).toEqual([]);
    expect(
      within(screen.getByRole('group', { name: 'Contact' })).getByText(
        'Please answer at least one question in this section.',
      ),
    ).toBeInTheDocument();
    type('Phone', '555');
    send();
    expect(sent).toEqual([
      [
        {
          linkId: 'must',
          text: 'Contact',
          item: [{ linkId: 'phone', text: 'Phone', answer: [{ valueString: '555' }] }],
        },
      ],
    ]);
  });
});
