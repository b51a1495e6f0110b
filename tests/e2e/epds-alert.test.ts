// The EPDS alert end to end in Chromium (SPEC §6 roles, §7 live
// updates): Dr. Chen's inbox is open in one browser context; in another, Maria answers the Edinburgh
// Postnatal Depression Scale with a total of 14 (item 10 at 0). The seeded bot scores it, and Maria
// reads the calm message with whom to call now (the clinic's phone and the emergency number), while
// the alert appears in Dr. Chen's inbox without a reload, marked Urgent. Axe clean on every screen.
import { seriousAxeViolations, sidewaysOverflow } from './support/patient-session';
import { useDemoSuite } from './support/demo-suite';

const suite = useDemoSuite();

/** Item scores in the scale's order: 2,2,2,2,2,2,1,1,0,0 = 14. */
const SCORES = [2, 2, 2, 2, 2, 2, 1, 1, 0, 0];
/** Items printed calmest answer first (the others print their worst first: scored in reverse). */
const FORWARD_ITEMS = new Set([1, 2, 4]);

it('Maria answers the EPDS with 14; she reads whom to call and Dr. Chen’s inbox shows the alert live', async () => {
  const chen = await suite.signIn('dr-chen', 1280);
  await chen.page.goto(suite.url('/inbox'));
  await chen.page.getByRole('heading', { level: 1, name: 'Inbox' }).waitFor();
  const threads = chen.page.getByRole('list', { name: 'Message threads' });
  await threads.getByRole('listitem').first().waitFor();
  expect(await chen.page.getByText('Mood screening alert: EPDS 14').count()).toBe(0);

  const maria = await suite.signIn('maria', 375);
  await maria.page.goto(suite.url('/forms'));
  const title = 'Edinburgh Postnatal Depression Scale (EPDS)';
  await maria.page.getByRole('list', { name: 'Forms to fill in' }).getByRole('link', { name: title }).click();
  await maria.page.getByRole('heading', { level: 1, name: title }).waitFor();
  const questions = maria.page.getByRole('radiogroup');
  await questions.first().waitFor();
  expect(await questions.count()).toBe(10);
  await maria.page.getByText('I have been able to laugh and see the funny side of things').waitFor();
  for (const [index, score] of SCORES.entries()) {
    const position = FORWARD_ITEMS.has(index + 1) ? score : 3 - score;
    await questions.nth(index).getByRole('radio').nth(position).check();
  }
  expect(await seriousAxeViolations(maria.page)).toEqual([]);
  await maria.page.getByRole('button', { name: 'Send answers' }).click();

  await maria.page.waitForURL(/\/screening\/[^/]+$/);
  await maria.page.getByRole('heading', { level: 1, name: 'Thank you for your answers' }).waitFor();
  await maria.page
    .getByRole('heading', { level: 2, name: 'Who to contact now' })
    .waitFor({ timeout: 30_000 });
  const status = maria.page.getByRole('status');
  expect(await status.getByRole('link', { name: '911' }).getAttribute('href')).toBe('tel:911');
  const clinicPhone = status.getByRole('link', { name: /^\+1/ });
  expect(await clinicPhone.getAttribute('href')).toMatch(/^tel:\+1\d{10}$/);
  // Item 10 at 0: no crisis line, only the clinic and the emergency number.
  expect(await status.getByRole('link', { name: '988' }).count()).toBe(0);
  expect(await seriousAxeViolations(maria.page)).toEqual([]);
  expect(await sidewaysOverflow(maria.page)).toBeLessThanOrEqual(0);

  // Live: the inbox was not reloaded.
  const alert = threads.getByRole('listitem').filter({ hasText: 'Mood screening alert: EPDS 14' });
  await alert.waitFor({ timeout: 30_000 });
  await alert.getByText('Urgent').waitFor();
  await alert
    .getByText("Maria Garcia's Edinburgh Postnatal Depression Scale total is 14 (item 10: 0).", {
      exact: false,
    })
    .waitFor();
  expect(await seriousAxeViolations(chen.page)).toEqual([]);
}, 120_000);
