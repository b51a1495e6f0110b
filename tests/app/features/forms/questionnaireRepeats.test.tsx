// The questionnaire renderer's repeating groups (SPEC §6: a patient answers the clinic's forms):
// "Add another" and "Remove" as labelled buttons, each instance its own fieldset with its own
// answers, required questions and enableWhen judged inside each instance as the server judges
// them (response-repeats.test.ts), and one response item per instance given.
import type { Questionnaire, QuestionnaireResponseItem } from '@medplum/fhirtypes';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { QuestionnaireForm } from '../../../../src/app/features/forms/QuestionnaireForm';

const FORM: Questionnaire = {
  resourceType: 'Questionnaire',
  status: 'active',
  title: 'Household',
  item: [
    {
      linkId: 'household',
      type: 'group',
      text: 'Household member',
      repeats: true,
      item: [
        { linkId: 'member-name', type: 'string', text: 'Name', required: true },
        { linkId: 'member-smokes', type: 'boolean', text: 'Smokes' },
        {
          linkId: 'member-per-day',
          type: 'integer',
          text: 'Cigarettes a day',
          required: true,
          enableWhen: [{ question: 'member-smokes', operator: '=', answerBoolean: true }],
        },
      ],
    },
    { linkId: 'score', type: 'integer', text: 'Score' },
    {
      linkId: 'follow-up',
      type: 'string',
      text: 'Who to call',
      enableWhen: [{ question: 'score', operator: '>=', answerInteger: 10 }],
    },
  ],
};

function renderForm() {
  const sent: QuestionnaireResponseItem[][] = [];
  render(<QuestionnaireForm questionnaire={FORM} onSubmit={(items) => void sent.push(items)} />);
  return { sent, send: () => fireEvent.click(screen.getByRole('button', { name: 'Send answers' })) };
}

const member = (n: number) => screen.getByRole('group', { name: `Household member ${n}` });
const type = (group: HTMLElement, label: string, value: string) =>
  fireEvent.change(within(group).getByRole('textbox', { name: label }), { target: { value } });

describe('QuestionnaireForm: repeating groups', () => {
  it('adds and removes instances with labelled buttons, each with its own answers, one item each', () => {
    const { sent, send } = renderForm();
    expect(screen.queryByRole('button', { name: /^Remove/ })).not.toBeInTheDocument();
    const add = screen.getByRole('button', { name: 'Add another Household member' });
    expect(add.tagName).toBe('BUTTON');
    fireEvent.click(add);
    fireEvent.click(add);
    expect(screen.getAllByRole('group', { name: /^Household member \d$/ })).toHaveLength(3);
    type(member(1), 'Name', 'Ana');
    type(member(2), 'Name', 'Bea');
    type(member(3), 'Name', 'Luis');
    fireEvent.click(within(member(3)).getByRole('radio', { name: 'Yes' }));
    // Only the smoker's instance asks how many.
    expect(within(member(3)).getByRole('textbox', { name: 'Cigarettes a day' })).toBeInTheDocument();
    expect(within(member(1)).queryByRole('textbox', { name: 'Cigarettes a day' })).not.toBeInTheDocument();
    type(member(3), 'Cigarettes a day', '4');
    // Removing the second keeps the others' answers where they were.
    fireEvent.click(screen.getByRole('button', { name: 'Remove Household member 2' }));
    expect(screen.getAllByRole('group', { name: /^Household member \d$/ })).toHaveLength(2);
    expect(within(member(2)).getByRole('textbox', { name: 'Name' })).toHaveValue('Luis');
    send();
    expect(sent).toEqual([
      [
        {
          linkId: 'household',
          text: 'Household member',
          item: [{ linkId: 'member-name', text: 'Name', answer: [{ valueString: 'Ana' }] }],
        },
        {
          linkId: 'household',
          text: 'Household member',
          item: [
            { linkId: 'member-name', text: 'Name', answer: [{ valueString: 'Luis' }] },
            { linkId: 'member-smokes', text: 'Smokes', answer: [{ valueBoolean: true }] },
            { linkId: 'member-per-day', text: 'Cigarettes a day', answer: [{ valueInteger: 4 }] },
          ],
        },
      ],
    ]);
  });

  it('asks for a required question in the instance that misses it, and leaves an empty instance out', () => {
    const { sent, send } = renderForm();
    fireEvent.click(screen.getByRole('button', { name: 'Add another Household member' }));
    fireEvent.click(screen.getByRole('button', { name: 'Add another Household member' }));
    type(member(1), 'Name', 'Ana');
    fireEvent.click(within(member(2)).getByRole('radio', { name: 'No' }));
    send();
    expect(sent).toEqual([]);
    expect(
      screen.getByText('One answer needs your attention before you can send the form.'),
    ).toBeInTheDocument();
    expect(within(member(2)).getByText('Please answer this question.')).toBeInTheDocument();
    expect(within(member(1)).queryByText('Please answer this question.')).not.toBeInTheDocument();
    expect(within(member(3)).queryByText('Please answer this question.')).not.toBeInTheDocument();
    type(member(2), 'Name', 'Bea');
    send();
    expect(sent[0]?.filter((item) => item.linkId === 'household')).toHaveLength(2);
  });

  it("shows a question by '>=' only while the condition holds, and never sends its hidden answer", () => {
    const { sent, send } = renderForm();
    type(member(1), 'Name', 'Ana');
    fireEvent.change(screen.getByRole('textbox', { name: 'Score' }), { target: { value: '12' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Who to call' }), {
      target: { value: 'My sister' },
    });
    fireEvent.change(screen.getByRole('textbox', { name: 'Score' }), { target: { value: '9' } });
    expect(screen.queryByRole('textbox', { name: 'Who to call' })).not.toBeInTheDocument();
    send();
    expect(sent[0]?.map((item) => item.linkId)).toEqual(['household', 'score']);
  });
});
