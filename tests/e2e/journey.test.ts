// The pregnancy timeline in Chromium: Maria, at 375 px and at 1280 px, follows Home's "Next step" to
// /pregnancy and reads her week and trimester and the clinic's care plan (the seeded PlanDefinition
// applied to her), each step Done, Due now or Upcoming; axe clean, no sideways scroll, at most one
// GraphQL request for the screen (none from Home, whose query holds the same plan; one opened directly).
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
    expect(await steps.count()).toBe(7);
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
    expect(await steps.count()).toBe(7);
    const cold = maria.graphqlDocuments.slice(coldBefore);
    expect(cold).toHaveLength(1);
    expect(cold[0]).toContain('query PregnancyTimeline');
  },
  120_000,
);
