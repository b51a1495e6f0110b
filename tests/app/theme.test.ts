import { getContrastRatio } from '@mui/material/styles';
import { blush, theme } from '../../src/app/theme';

// WCAG 2.1 AA: 4.5:1 for normal text.
const aa = 4.5;

describe('theme contrast (WCAG AA)', () => {
  const { palette } = theme;
  const backgrounds = { default: palette.background.default, paper: palette.background.paper, blush };

  it.each(Object.entries(backgrounds))(
    'text, primary, secondary and error colours are readable on %s',
    (_name, bg) => {
      for (const colour of [
        palette.text.primary,
        palette.text.secondary,
        palette.primary.main,
        palette.secondary.main,
        palette.error.main,
      ]) {
        expect(getContrastRatio(colour, bg)).toBeGreaterThanOrEqual(aa);
      }
    },
  );

  it.each(['primary', 'secondary', 'error'] as const)('button text is readable on %s', (key) => {
    expect(getContrastRatio(palette[key].contrastText, palette[key].main)).toBeGreaterThanOrEqual(aa);
  });
});
