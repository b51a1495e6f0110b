// The kick count in Chromium (issue "Beyond the portal": a daily kick count after 28 weeks stored as
// Observations with a chart): Maria, at 35 weeks, opens it from her pregnancy timeline, counts ten
// movements, and her count is saved on the server and listed, at 375 and 1280 px; axe clean, no
// sideways scroll, one GraphQL request for the screen. Aisha, at 22 weeks, is told when counting starts.
import { seriousAxeViolations, sidewaysOverflow } from './support/patient-session';
import { useDemoSuite } from './support/demo-suite';

const suite = useDemoSuite();

it.each([375, 1280])(
  'Maria counts ten movements at %i px and the count is saved',
  async (width) => {
    const maria = await suite.signIn('maria', width);
    const page = maria.page;
    await page.goto(suite.url('/pregnancy'));
    const link = page.getByRole('link', { name: "Count your baby's kicks" });
    await link.waitFor();
    const sentBefore = maria.graphqlDocuments.length;
    await link.click();
    await page.getByRole('heading', { level: 1, name: "Count your baby's kicks" }).waitFor();
    const history = page.getByRole('region', { name: 'Your recent counts' });
    await history.waitFor();
    const before = await history.getByRole('listitem').count();
    const sent = maria.graphqlDocuments.slice(sentBefore);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toContain('query KickCounts');

    await page.getByRole('button', { name: 'Start counting' }).click();
    const movement = page.getByRole('button', { name: 'I felt a movement' });
    for (let i = 0; i < 10; i += 1) await movement.click();
    await page.getByText(/^Saved: 10 movements in 1 minute\. Your baby is moving well\.$/).waitFor();
    await history.getByRole('listitem').nth(before).waitFor();
    expect(await history.getByRole('listitem').count()).toBe(before + 1);
    await expect(history.getByRole('listitem').first().textContent()).resolves.toContain(
      '10 movements in 1 minute',
    );
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);

    // On the server: a new visit reads the count back.
    await page.reload();
    await history.getByRole('listitem').nth(before).waitFor();
  },
  120_000,
);

it('Aisha, at 22 weeks, is told that kick counting starts at 28 weeks', async () => {
  const { page } = await suite.signIn('aisha', 375);
  await page.goto(suite.url('/pregnancy/kicks'));
  await page.getByText('Kick counting starts at 28 weeks. You are 22 weeks pregnant.').waitFor();
  expect(await page.getByRole('button', { name: 'Start counting' }).count()).toBe(0);
  expect(await seriousAxeViolations(page)).toEqual([]);
}, 60_000);
