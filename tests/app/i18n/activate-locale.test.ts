// The last language asked for wins: the device's Spanish waiting for its catalog must not undo her
// record's English chosen meanwhile (the profile arrives while the Spanish chunk loads).
import { activateLocale, activeLocale } from '../../../src/app/i18n/i18n';

afterAll(() => activateLocale('en'));

describe('activateLocale', () => {
  it('a later switch wins over an earlier one still loading its catalog', async () => {
    await Promise.all([activateLocale('es'), activateLocale('en')]);
    expect(activeLocale()).toBe('en');
    expect(document.documentElement.lang).toBe('en');
  });

  it('Spanish, once asked for last, is active with its catalog', async () => {
    await Promise.all([activateLocale('en'), activateLocale('es')]);
    expect(activeLocale()).toBe('es');
    expect(document.documentElement.lang).toBe('es');
  });
});
