// The care team's side in Chromium against the real API seeded with the demo clinic (SPEC §2 roles,
// §6): Dr. Chen's home lists Maria (week, critical result), her chart opens Maria's lab results, and
// a reply Dr. Chen writes in Maria's thread from the chart reaches Maria's open Messages screen live.
// A patient cannot accept an appointment herself: the seeded patient policy only reads Appointments.
// At 1280 and 375 px, with axe (0 critical, 0 serious) on every new screen.
import type { Appointment } from '@medplum/fhirtypes';
import { demoApiClient, demoPatientId } from './support/demo-sign-in';
import { openMainNavItem, seriousAxeViolations, sidewaysOverflow } from './support/patient-session';
import { useDemoSuite } from './support/demo-suite';

const suite = useDemoSuite();

describe.each([1280, 375])('care team at %i px', (width) => {
  it('Dr. Chen sees her patients, opens Maria’s chart and replies; Maria sees the reply live', async () => {
    const chen = await suite.signIn('dr-chen', width);
    const { page } = chen;
    const list = page.getByRole('list', { name: 'Your patients' });
    await list.getByRole('link', { name: 'Maria Garcia' }).waitFor();
    expect(await list.getByText(/^Week \d+$/).count()).toBeGreaterThan(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);

    await list.getByRole('link', { name: 'Maria Garcia' }).click();
    await page.getByRole('heading', { level: 1, name: 'Lab Results' }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);

    const maria = await suite.signIn('maria', width);
    await openMainNavItem(maria.page, width, 'Messages');
    await maria.page.getByRole('heading', { level: 1, name: 'Messages' }).waitFor();

    await page
      .getByRole('navigation', { name: 'Patient chart' })
      .getByRole('link', { name: 'Messages', exact: true })
      .click();
    await page.getByRole('heading', { level: 1, name: 'Messages' }).waitFor();
    const reply = `Reply from the chart at ${width} px`;
    await page.getByRole('textbox', { name: /message/i }).fill(reply);
    await page.getByRole('button', { name: /^Send/ }).click();
    await maria.page.getByText(reply, { exact: true }).waitFor({ timeout: 30_000 });
    expect(await seriousAxeViolations(page)).toEqual([]);

    await openMainNavItem(page, width, 'Inbox');
    await page.getByRole('heading', { level: 1, name: 'Inbox' }).waitFor();
    await page
      .getByRole('list', { name: 'Message threads' })
      .getByRole('link', { name: 'Maria Garcia' })
      .first()
      .waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
  }, 240_000);
});

it('a patient cannot accept an appointment: the seeded policy lets her only read it (403)', async () => {
  const maria = await demoApiClient(suite.bloom, 'maria@bloom.example');
  const mariaId = await demoPatientId(suite.bloom, 'maria@bloom.example');
  const [appointment] = await maria.searchResources<Appointment>('Appointment', {
    patient: `Patient/${mariaId}`,
  });
  expect(appointment?.id).toBeDefined();
  const accepted = {
    ...appointment,
    participant: appointment.participant?.map((p) => ({ ...p, status: 'accepted' as const })),
  };
  await expect(maria.updateResource(accepted)).rejects.toThrow(/forbidden|not allowed|denied/i);
}, 60_000);
