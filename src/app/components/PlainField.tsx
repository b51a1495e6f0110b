// The frame PlainTextField and PlainSelectField share: a label above the control, the control drawn as
// MUI's outlined input draws it (1 px outline, 2 px in the primary colour on focus, red when invalid),
// and the helper text under it. Plain elements styled with the theme: MUI's InputBase, OutlinedInput,
// InputLabel and FormControl cost ~7 KB on the wire for what a screen of text fields never uses.
import { styled, type Theme } from '@mui/material/styles';
import type { CSSObject } from '@mui/material/styles';
import type { ReactNode } from 'react';

const LINE = '1.4375em';
/** Vertical padding plus the outline, as MUI's outlined input (16.5 px top and bottom). */
const FRAME = '35px';

export function outlinedControl(theme: Theme): CSSObject {
  const outline = theme.palette.mode === 'light' ? 'rgba(0, 0, 0, 0.23)' : 'rgba(255, 255, 255, 0.23)';
  return {
    boxSizing: 'border-box',
    display: 'block',
    width: '100%',
    minWidth: 0,
    margin: 0,
    padding: '16.5px 14px',
    font: 'inherit',
    fontSize: '1rem',
    lineHeight: LINE,
    color: theme.palette.text.primary,
    background: 'transparent',
    border: `1px solid ${outline}`,
    borderRadius: theme.shape.borderRadius,
    '&:hover': { borderColor: theme.palette.text.primary },
    '&:focus': {
      outline: 'none',
      borderColor: theme.palette.primary.main,
      boxShadow: `inset 0 0 0 1px ${theme.palette.primary.main}`,
    },
    '&[aria-invalid="true"]': { borderColor: theme.palette.error.main },
    '&[aria-invalid="true"]:focus': { boxShadow: `inset 0 0 0 1px ${theme.palette.error.main}` },
    '&::placeholder': { color: 'currentColor', opacity: 0.42 },
  };
}

export const PlainInput = styled('input')(({ theme }) => outlinedControl(theme));

/** Grows with its text (CSS field-sizing) between its minimum and maximum number of lines. */
export const PlainTextarea = styled('textarea', {
  shouldForwardProp: (prop) => prop !== 'minLines' && prop !== 'maxLines',
})<{ minLines?: number; maxLines?: number }>(({ theme, minLines = 1, maxLines }) => ({
  ...outlinedControl(theme),
  resize: 'none',
  fieldSizing: 'content',
  minHeight: `calc(${minLines} * ${LINE} + ${FRAME})`,
  ...(maxLines ? { maxHeight: `calc(${maxLines} * ${LINE} + ${FRAME})`, overflowY: 'auto' } : {}),
}));

export const PlainSelect = styled('select')(({ theme }) => ({
  ...outlinedControl(theme),
  cursor: 'pointer',
}));

export interface PlainFieldFrameProps {
  readonly inputId: string;
  readonly label: string;
  readonly required?: boolean;
  readonly error: boolean;
  readonly fullWidth?: boolean;
  readonly helperId: string | undefined;
  readonly helperText: string | undefined;
  /** 'alert' when the helper text is a problem that must be announced as it appears. */
  readonly helperRole?: 'alert';
  readonly children: ReactNode;
}

const Frame = styled('div')({ display: 'inline-flex', flexDirection: 'column', minWidth: 0 });

const Label = styled('label')(({ theme }) => ({
  ...theme.typography.body2,
  fontWeight: 500,
  marginBottom: theme.spacing(0.75),
  color: theme.palette.text.secondary,
}));

const Helper = styled('p')(({ theme }) => ({
  ...theme.typography.caption,
  margin: theme.spacing(0.5, 1.75, 0),
  color: theme.palette.text.secondary,
}));

export function PlainFieldFrame({
  inputId,
  label,
  required,
  error,
  fullWidth,
  helperId,
  helperText,
  helperRole,
  children,
}: PlainFieldFrameProps) {
  const problem = error ? { color: 'error.main' } : undefined;
  return (
    <Frame sx={fullWidth ? { display: 'flex', width: '100%' } : undefined}>
      <Label htmlFor={inputId} sx={problem}>
        {label}
        {/* As MUI marks a required field: the asterisk is seen, the input's `required` is announced. */}
        {required && <span aria-hidden="true">&thinsp;*</span>}
      </Label>
      {children}
      {helperText && (
        <Helper id={helperId} role={helperRole} sx={problem}>
          {helperText}
        </Helper>
      )}
    </Frame>
  );
}
