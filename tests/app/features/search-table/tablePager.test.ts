// The pager's range text (SPEC §2 search table): counts written as en-US writes them.
import { countText, rangeText } from '../../../../src/app/features/search-table/TablePager';

describe('the pager range text', () => {
  it('writes counts with en-US thousands separators', () => {
    for (const value of [0, 7, 999, 1000, 12345, 999999, 1000000, 123456789]) {
      expect(countText(value)).toBe(value.toLocaleString('en-US'));
    }
  });

  it('leaves what is not a whole count to toLocaleString', () => {
    expect(countText(-1200)).toBe('-1,200');
    expect(countText(1234.5)).toBe('1,234.5');
  });

  it('names the range and the total, marking an estimate', () => {
    expect(rangeText(0, 20, 1234, false)).toBe('1-20 of 1,234');
    expect(rangeText(20, 20, 54321, true)).toBe('21-40 of ~54,321');
    expect(rangeText(0, 20, undefined, false)).toBe('1-20');
  });
});
