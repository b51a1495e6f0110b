// The pregnancy timeline in Chromium: Maria, at 375 px and at 1280 px, follows Home's "Next step" to
// /pregnancy and reads her week and trimester and the clinic's care plan (the seeded PlanDefinition
// applied to her), each step Done, Due now or Upcoming; axe clean, no sideways scroll, at most one
// GraphQL request for the screen (none from Home, whose query holds the same plan; one opened directly).
// The plan's mood check (EPDS, 28-32 weeks) is due for her at 35 weeks: she follows "Answer the
// questionnaire" to the form, sends it, and the step reads Done with a link to her answers.
import { seriousAxeViolations, sidewaysOverflow } from './support/patient-session';
import { useDemoSuite } from './support/demo-suite';

const suite = useDemoSuite();
const STEP_STATUS = /^(Done|Due now|Upcoming)$/;

it.each([375, 1280])(
  'Maria reads her week and her care plan at %i px',
  async (width) => {
    const maria = await suite.signIn('maria', width);
    const page = maria.page;
    await page.goto(suite.url('/'));
    const nextStep = page.getByRole('region', { name: 'Next step' });
    await nextStep.waitFor();
    const nextTitle = (await nextStep.locator('p').first().textContent())?.trim() ?? '';
    expect(nextTitle).not.toBe('');

    const sentBefore = maria.graphqlDocuments.length;
    await nextStep.getByRole('link', { name: 'See your care plan' }).click();
    await page.getByRole('heading', { level: 1, name: 'Your pregnancy' }).waitFor();
    await page.getByText(/^Week \d+ · (first|second|third) trimester$/).waitFor();

    const steps = page.getByRole('list', { name: 'Your care plan' }).getByRole('listitem');
    expect(await steps.count()).toBe(9);
    const states = await steps.evaluateAll((items) => items.map((item) => item.getAttribute('data-state')));
    expect(states).toContain('done');
    expect(states).toContain('upcoming');
    for (const item of await steps.all()) {
      const badge = item.locator('[data-status]');
      expect((await badge.textContent())?.trim()).toMatch(STEP_STATUS);
    }
    // The step Home offered is on the plan, not done.
    const offered = steps.filter({ hasText: nextTitle });
    expect(await offered.first().getAttribute('data-state')).not.toBe('done');

    // From Home the cache already holds everything the timeline shows (Home read the same plan).
    const sent = maria.graphqlDocuments.slice(sentBefore);
    expect(sent.length).toBeLessThanOrEqual(1);
    expect(sent.every((query) => query.includes('query PregnancyTimeline'))).toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);

    // Opened directly, the screen asks once.
    const coldBefore = maria.graphqlDocuments.length;
    await page.goto(suite.url('/pregnancy'));
    await page.getByRole('list', { name: 'Your care plan' }).waitFor();
    expect(await steps.count()).toBe(9);
    const cold = maria.graphqlDocuments.slice(coldBefore);
    expect(cold).toHaveLength(1);
    expect(cold[0]).toContain('query PregnancyTimeline');
  },
  120_000,
);

/** Items printed calmest answer first (the others print their worst first: scored in reverse). */
const FORWARD_ITEMS = new Set([1, 2, 4]);

it('Maria answers the mood check her plan offers, and the step is done, linked to her answers', async () => {
  const maria = await suite.signIn('maria', 375);
  const page = maria.page;
  await page.goto(suite.url('/pregnancy'));
  const steps = page.getByRole('list', { name: 'Your care plan' }).getByRole('listitem');
  await steps.first().waitFor();
  const moodChecks = steps.filter({ hasText: 'Mood check (EPDS)' });
  expect(await moodChecks.count()).toBe(2);
  // 28-32 weeks: due (overdue) at 35 weeks; after the birth: upcoming, nothing to answer yet.
  expect(await moodChecks.nth(0).getAttribute('data-state')).toBe('due');
  expect(await moodChecks.nth(1).getAttribute('data-state')).toBe('upcoming');
  expect(await moodChecks.nth(1).getByRole('link', { name: 'Answer the questionnaire' }).count()).toBe(0);
  expect(await page.getByRole('link', { name: 'Answer the questionnaire' }).count()).toBe(1);

  await moodChecks.nth(0).getByRole('link', { name: 'Answer the questionnaire' }).click();
  const title = 'Edinburgh Postnatal Depression Scale (EPDS)';
  await page.getByRole('heading', { level: 1, name: title }).waitFor();
  expect(page.url()).toMatch(/\/forms\/[^/?]+$/);
  const questions = page.getByRole('radiogroup');
  await questions.first().waitFor();
  expect(await questions.count()).toBe(10);
  for (let index = 0; index < 10; index += 1) {
    await questions
      .nth(index)
      .getByRole('radio')
      .nth(FORWARD_ITEMS.has(index + 1) ? 0 : 3)
      .check();
  }
  await page.getByRole('button', { name: 'Send answers' }).click();
  await page.waitForURL(/\/screening\/[^/]+$/);
  const responseId = page.url().split('/').pop() as string;
  await page.getByRole('heading', { level: 1, name: 'Thank you for your answers' }).waitFor();

  // The scoring bot links the response to the step; the screen reads the plan anew when opened.
  const until = Date.now() + 30_000;
  for (;;) {
    await page.goto(suite.url('/pregnancy'));
    await steps.first().waitFor();
    if ((await moodChecks.nth(0).getAttribute('data-state')) === 'done') break;
    if (Date.now() > until) throw new Error('The mood check was not marked done');
    await page.waitForTimeout(500);
  }
  const answers = moodChecks.nth(0).getByRole('link', { name: 'See your answers' });
  expect(await answers.getAttribute('href')).toBe(`/forms/responses/${responseId}`);
  expect(await page.getByRole('link', { name: 'Answer the questionnaire' }).count()).toBe(0);
  expect(await seriousAxeViolations(page)).toEqual([]);
  expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
}, 120_000);
