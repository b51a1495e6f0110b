// A router link drawn as a button (text, contained or outlined; medium or large). The signed-out pages
// use it for Log in / Sign up: MUI's Button would bring ButtonBase and its ripple into the landing
// page's download, and a link needs neither.
import { alpha, styled, type CSSObject, type Theme } from '@mui/material/styles';
import { Link } from 'react-router-dom';

export interface LinkButtonStyle {
  readonly variant?: 'text' | 'contained' | 'outlined';
  readonly size?: 'medium' | 'large';
}

const ownProp = (prop: string) => prop !== 'variant' && prop !== 'size' && prop !== 'sx';

function buttonLook({ theme }: { theme: Theme }): CSSObject {
  const { primary } = theme.palette;
  return {
    ...theme.typography.button,
    display: 'inline-flex',
    alignItems: 'center',
    justifyContent: 'center',
    boxSizing: 'border-box',
    minWidth: 64,
    padding: '6px 16px',
    border: '1px solid transparent',
    borderRadius: theme.shape.borderRadius,
    color: primary.main,
    textDecoration: 'none',
    whiteSpace: 'nowrap',
    transition: theme.transitions.create(['background-color', 'border-color'], {
      duration: theme.transitions.duration.short,
    }),
    '&:hover': { backgroundColor: alpha(primary.main, theme.palette.action.hoverOpacity) },
    variants: [
      { props: { size: 'large' }, style: { padding: '8px 22px', fontSize: '0.9375rem' } },
      {
        props: { variant: 'contained' },
        style: {
          backgroundColor: primary.main,
          color: primary.contrastText,
          '&:hover': { backgroundColor: primary.dark },
        },
      },
      // A solid border, as the theme gives outlined buttons (WCAG 1.4.11).
      { props: { variant: 'outlined' }, style: { borderColor: primary.main } },
    ],
  } as CSSObject;
}

export const LinkButton = styled(Link, { shouldForwardProp: ownProp })<LinkButtonStyle>(buttonLook);

/**
 * A plain <button> with the same look, for the app shell's error fallbacks (the error panel's 'Try
 * again'): they are in the landing page's download too, so they cannot bring MUI's Button either.
 */
export const PlainButton = styled('button', { shouldForwardProp: ownProp })<LinkButtonStyle>((props) => ({
  ...buttonLook(props),
  backgroundColor: 'transparent',
  cursor: 'pointer',
}));
