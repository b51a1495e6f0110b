// Bloom's MUI theme: a calm pregnancy-care palette (deep teal, rose, warm off-white).
// Every text colour meets WCAG AA (4.5:1) on the backgrounds it is used on; tests/app/theme.test.ts checks it.
import { createTheme } from '@mui/material/styles';

/** Soft blush used behind the landing hero; text on it keeps AA contrast too. */
export const blush = '#f6ece8';

/** Keyboard focus ring colour: rose, 3:1 or better against every background used. */
const focusRing = '#9b3f63';

const sansSerif = [
  'system-ui',
  '-apple-system',
  '"Segoe UI"',
  'Roboto',
  '"Helvetica Neue"',
  'Arial',
  '"Noto Sans"',
  '"Liberation Sans"',
  'sans-serif',
].join(',');
const serif = [
  '"Iowan Old Style"',
  '"Palatino Linotype"',
  'Palatino',
  'Georgia',
  '"DejaVu Serif"',
  'serif',
].join(',');

export const theme = createTheme({
  palette: {
    primary: { main: '#2f5d62', contrastText: '#ffffff' },
    secondary: { main: '#9b3f63', contrastText: '#ffffff' },
    error: { main: '#b3261e', contrastText: '#ffffff' },
    background: { default: '#fbf8f5', paper: '#ffffff' },
    text: { primary: '#2b2a33', secondary: '#5a5560' },
  },
  shape: { borderRadius: 10 },
  typography: {
    fontFamily: sansSerif,
    h1: {
      textWrap: 'balance',
      fontFamily: serif,
      fontWeight: 600,
      fontSize: '2.25rem',
      lineHeight: 1.15,
      letterSpacing: '-0.01em',
    },
    h2: { textWrap: 'balance', fontFamily: serif, fontWeight: 600, fontSize: '1.75rem', lineHeight: 1.2 },
    h3: { textWrap: 'balance', fontFamily: serif, fontWeight: 600, fontSize: '1.3rem' },
    button: { textTransform: 'none', fontWeight: 600 },
  },
  components: {
    MuiCssBaseline: {
      styleOverrides: {
        // A clearly visible keyboard focus ring on every focusable element (WCAG 2.4.7).
        ':focus-visible': { outline: `3px solid ${focusRing}`, outlineOffset: '2px' },
        'html, body, #root': { minHeight: '100%' },
      },
    },
    // MUI's ButtonBase removes the outline; give its keyboard focus the same ring.
    MuiButtonBase: {
      styleOverrides: {
        root: { '&.Mui-focusVisible': { outline: `3px solid ${focusRing}`, outlineOffset: '2px' } },
      },
    },
    MuiButton: {
      defaultProps: { disableElevation: true },
      // A solid border so an outlined button's edge is as visible as its label (WCAG 1.4.11).
      styleOverrides: {
        root: {
          variants: [{ props: { variant: 'outlined', color: 'primary' }, style: { borderColor: '#2f5d62' } }],
        },
      },
    },
    // Links inside text are underlined, so they are not told apart by colour alone (WCAG 1.4.1).
    MuiLink: { defaultProps: { underline: 'always' } },
  },
});
