// The month calendar's layout and keyboard moves (SPEC §2 "Appointment request screen": weekday
// headers SUN to SAT, a day enabled only when a free slot starts on it).
import { monthWeeks, moveFocus, weekdays } from '../../../../src/app/features/get-care/monthGrid';

const nov = (day: number) => new Date(2026, 10, day);

describe('SPEC §2 month calendar grid', () => {
  it('names the weekdays in the given language, Sunday first', () => {
    expect(weekdays('es').map((d) => d.short)).toEqual(['DOM', 'LUN', 'MAR', 'MIÉ', 'JUE', 'VIE', 'SÁB']);
    expect(weekdays('es')[0].long).toBe('domingo');
  });

  it('lays a month out in weeks from Sunday, empty cells before the 1st and after the last day', () => {
    expect(weekdays('en').map((d) => d.short)).toEqual(['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT']);
    expect(weekdays('en')[0].long).toBe('Sunday');
    // November 2026 starts on a Sunday and has 30 days: 5 weeks, the last one ending on Monday the 30th.
    const weeks = monthWeeks(nov(1));
    expect(weeks).toHaveLength(5);
    expect(weeks[0][0]?.getDate()).toBe(1);
    expect(weeks[4].map((d) => d?.getDate() ?? null)).toEqual([29, 30, null, null, null, null, null]);
    // February 2026 starts on a Sunday with 28 days: exactly 4 weeks; December 2026 starts on a Tuesday.
    expect(monthWeeks(new Date(2026, 1, 1))).toHaveLength(4);
    expect(
      monthWeeks(new Date(2026, 11, 1))[0]
        .slice(0, 3)
        .map((d) => d?.getDate() ?? null),
    ).toEqual([null, null, 1]);
  });

  it('moves focus only onto days that can be chosen', () => {
    const enabled = [nov(3), nov(5), nov(12), nov(20)];
    expect(moveFocus(nov(3), 'ArrowRight', enabled)).toEqual(nov(5));
    expect(moveFocus(nov(5), 'ArrowLeft', enabled)).toEqual(nov(3));
    expect(moveFocus(nov(5), 'ArrowDown', enabled)).toEqual(nov(12));
    expect(moveFocus(nov(12), 'ArrowDown', enabled)).toEqual(nov(20));
    expect(moveFocus(nov(12), 'ArrowUp', enabled)).toEqual(nov(5));
    expect(moveFocus(nov(20), 'ArrowRight', enabled)).toBeNull();
    expect(moveFocus(nov(3), 'ArrowLeft', enabled)).toBeNull();
    // Home and End: the first and last enabled day of the week (Sunday 1st to Saturday 7th).
    expect(moveFocus(nov(5), 'Home', enabled)).toEqual(nov(3));
    expect(moveFocus(nov(3), 'End', enabled)).toEqual(nov(5));
    expect(moveFocus(nov(3), 'Tab', enabled)).toBeNull();
  });
});
