// A repeating group in Chromium at 375 px (SPEC §6: she answers the clinic's forms about herself):
// the clinic's admin publishes a form whose "Household member" group repeats; Maria adds a second
// member with the labelled "Add another" button, answers both, sends, and finds the response in her
// list; the API holds one group item per member. axe on the form, nothing scrolls sideways.
import type { Bundle, Questionnaire, QuestionnaireResponse } from '@medplum/fhirtypes';
import { demoApiClient } from './support/demo-sign-in';
import { useDemoSuite } from './support/demo-suite';
import {
  openMainNavItem,
  seriousAxeViolations,
  sidewaysOverflow,
  storedLogin,
} from './support/patient-session';

const WIDTH = 375;
const HOUSEHOLD: Questionnaire = {
  resourceType: 'Questionnaire',
  status: 'active',
  url: 'https://bloom.example/fhir/Questionnaire/e2e-household',
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
      ],
    },
  ],
};

const suite = useDemoSuite();

it('Maria answers a form with a repeating group twice and finds it in her answers', async () => {
  const admin = await demoApiClient(suite.bloom, 'admin@bloom.example');
  await admin.createResource(HOUSEHOLD);
  const { page } = await suite.signIn('maria', WIDTH);

  await openMainNavItem(page, WIDTH, 'Forms');
  await page.getByRole('list', { name: 'Forms to fill in' }).getByRole('link', { name: 'Household' }).click();
  await page.getByRole('heading', { level: 1, name: 'Household' }).waitFor();
  const member = (n: number) => page.getByRole('group', { name: `Household member ${n}` });
  await member(1).waitFor();
  expect(await page.getByRole('button', { name: /^Remove/ }).count()).toBe(0);

  // Keyboard: the labelled button adds a second member's fieldset.
  await page.getByRole('button', { name: 'Add another Household member' }).focus();
  await page.keyboard.press('Enter');
  await member(2).waitFor();
  await member(1).getByRole('textbox', { name: /^Name/ }).fill('Ana');
  await member(1).getByRole('radio', { name: 'No' }).check();
  await member(2).getByRole('textbox', { name: /^Name/ }).fill('Luis');
  await member(2).getByRole('radio', { name: 'Yes' }).check();
  expect(await seriousAxeViolations(page)).toEqual([]);
  expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
  await page.getByRole('button', { name: 'Send answers' }).click();

  await page.waitForURL(/\/forms$/);
  await page.getByText('Thank you. Your answers to Household were sent to your care team.').waitFor();
  const answers = page.getByRole('list', { name: 'Your answers' }).getByRole('listitem');
  expect(await answers.first().getByRole('link').textContent()).toBe('Household');

  const { accessToken, profile } = await storedLogin(page);
  const response = await fetch(
    new URL(`fhir/R4/QuestionnaireResponse?questionnaire=${HOUSEHOLD.url}`, suite.bloom.apiBaseUrl),
    { headers: { authorization: `Bearer ${accessToken}` } },
  );
  const bundle = (await response.json()) as Bundle<QuestionnaireResponse>;
  const stored = bundle.entry?.map((entry) => entry.resource) ?? [];
  expect(stored).toHaveLength(1);
  expect(stored[0]).toMatchObject({ status: 'completed', subject: { reference: profile } });
  expect(stored[0]?.item?.map((item) => item.item?.[0]?.answer?.[0]?.valueString)).toEqual(['Ana', 'Luis']);
}, 180_000);
