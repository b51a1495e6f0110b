// Forms in Chromium against the real API seeded with the demo clinic and the built app, signed in
// as Maria (SPEC §6: she answers the clinic's forms about herself): Forms in the header's navigation lists the clinic's questionnaires and her
// past answers; sending the mood screening empty says in plain words what is missing; answered, it
// is a completed QuestionnaireResponse the API holds (subject and author Maria, the form's canonical
// URL), it shows in her list, and she reads it back. At 1280 and 375 px; axe on both screens, nothing scrolls sideways.
import type { Bundle, QuestionnaireResponse } from '@medplum/fhirtypes';
import type { Page } from 'playwright-core';
import {
  openMainNavItem,
  seriousAxeViolations,
  sidewaysOverflow,
  storedLogin,
} from './support/patient-session';
import { useDemoSuite } from './support/demo-suite';

const MOOD_SCREENING_URL = 'https://bloom.example/fhir/Questionnaire/pregnancy-mood-screening';

const suite = useDemoSuite();

async function mariasResponses(page: Page): Promise<QuestionnaireResponse[]> {
  const { accessToken, profile } = await storedLogin(page);
  const response = await fetch(
    new URL(`fhir/R4/QuestionnaireResponse?subject=${profile}&_count=100`, suite.bloom.apiBaseUrl),
    { headers: { authorization: `Bearer ${accessToken}` } },
  );
  expect(response.status).toBe(200);
  const bundle = (await response.json()) as Bundle<QuestionnaireResponse>;
  return (bundle.entry ?? []).flatMap((entry) => (entry.resource ? [entry.resource] : []));
}

describe.each([1280, 375])('Forms at %i px', (width) => {
  it('Maria answers the mood screening and sees her response in her list', async () => {
    const { page } = await suite.signIn('maria', width);
    const { profile } = await storedLogin(page);
    const before = await mariasResponses(page);

    await openMainNavItem(page, width, 'Forms');
    await page.waitForURL(/\/forms$/);
    await page.getByRole('heading', { level: 1, name: 'Forms' }).waitFor();
    expect(await page.title()).toBe('Forms · Bloom');
    const forms = page.getByRole('list', { name: 'Forms to fill in' });
    await forms.getByRole('link', { name: 'Pregnancy intake' }).waitFor();
    const answers = page.getByRole('list', { name: 'Your answers' }).getByRole('listitem');
    // The demo seeds her earlier answers.
    await answers.first().waitFor();
    expect(await answers.count()).toBe(before.length);
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);

    await forms.getByRole('link', { name: 'Pregnancy mood screening' }).click();
    await page.getByRole('heading', { level: 1, name: 'Pregnancy mood screening' }).waitFor();
    const questions = page.getByRole('radiogroup');
    await questions.first().waitFor();
    expect(await questions.count()).toBe(10);

    // Sent empty: nothing is stored, and every question says what it needs.
    await page.getByRole('button', { name: 'Send answers' }).click();
    await page.getByRole('alert').filter({ hasText: '10 answers need your attention' }).waitFor();
    expect(await page.getByText('Please answer this question.').count()).toBe(10);

    // Keyboard: the first question's options are reached with Tab and picked with Space.
    await questions.first().getByRole('radio').first().focus();
    await page.keyboard.press('Space');
    expect(await questions.first().getByRole('radio').first().isChecked()).toBe(true);
    for (let index = 1; index < 10; index++) {
      // The calmest answer is the one scored 0: the last option of some items, the first of others.
      await questions.nth(index).getByRole('radio').last().check();
    }
    expect(await page.getByText('Please answer this question.').count()).toBe(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
    await page.getByRole('button', { name: 'Send answers' }).click();

    await page.waitForURL(/\/forms$/);
    await page
      .getByText('Thank you. Your answers to Pregnancy mood screening were sent to your care team.')
      .waitFor();
    await page.getByRole('list', { name: 'Your answers' }).getByRole('listitem').nth(before.length).waitFor();
    expect(await answers.count()).toBe(before.length + 1);
    // Newest first: hers, just sent, heads the list.
    expect(await answers.first().getByRole('link').textContent()).toBe('Pregnancy mood screening');

    // Her response, read back: each question with her answer in words.
    await answers.first().getByRole('link').click();
    await page.getByRole('heading', { level: 1, name: 'Your answers' }).waitFor();
    await page.getByText('Over the past week, I have been able to find humour in everyday things').waitFor();
    expect(await page.getByText('As often as usual', { exact: true }).count()).toBe(1);
    expect(await page.getByText('Never', { exact: true }).count()).toBe(1);
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);

    const after = await mariasResponses(page);
    const added = after.filter((response) => !before.some((old) => old.id === response.id));
    expect(added).toHaveLength(1);
    expect(added[0]).toMatchObject({
      questionnaire: MOOD_SCREENING_URL,
      status: 'completed',
      subject: { reference: profile },
      author: { reference: profile },
    });
    expect(added[0].item?.map((item) => item.answer?.[0]?.valueCoding?.system)).toEqual(
      Array(10).fill('https://bloom.example/fhir/CodeSystem/mood-screening-score'),
    );
    // Three screens, each scanned by axe: more than the default minute on a busy 2-core machine.
  }, 180_000);
});
