// The grid's checkboxes (each row's "Select row", the header's "Select all rows") as native inputs
// instead of MUI's Checkbox (a ripple button around an input and two icons), so that MUI's is not
// part of the table's download. Its accent colour is the theme's primary colour, and the grid's
// keyboard navigation focuses it as it does MUI's (tabindex 0).
import type { GridSlotProps } from '@mui/x-data-grid';
import { useForkRef } from '@mui/material/utils';
import { forwardRef, useEffect, useLayoutEffect, useRef, type Ref } from 'react';

/** The class the grid's styles give the checkbox (SearchTable's GRID_SX). */
export const GRID_CHECKBOX = 'bloom-grid-checkbox';

type GridCheckboxProps = GridSlotProps['baseCheckbox'] & { material?: unknown };

export const GridCheckbox = forwardRef<HTMLElement, GridCheckboxProps>(function GridCheckbox(props, ref) {
  const {
    autoFocus,
    checked,
    disabled,
    indeterminate,
    inputRef,
    label,
    name,
    id,
    onChange,
    slotProps,
    className,
    tabIndex,
    // MUI's look and feel, which a native input has no use for.
    fullWidth: _fullWidth,
    size: _size,
    density: _density,
    touchRippleRef: _touchRippleRef,
    material: _material,
    ...root
  } = props;
  const { ref: htmlInputRef, ...htmlInput } = slotProps?.htmlInput ?? {};
  const input = useRef<HTMLInputElement | null>(null);
  const setInput = useForkRef(input, inputRef, htmlInputRef);
  // `indeterminate` is a DOM property only (no attribute): the header's "some rows selected".
  useLayoutEffect(() => {
    if (input.current) input.current.indeterminate = indeterminate === true;
  }, [indeterminate]);
  useEffect(() => {
    if (autoFocus) input.current?.focus({ preventScroll: true });
  }, [autoFocus]);
  const box = (
    <input
      {...htmlInput}
      ref={setInput}
      type="checkbox"
      id={id}
      name={name}
      checked={checked}
      disabled={disabled}
      tabIndex={tabIndex}
      onChange={onChange}
    />
  );
  const rootClass = className ? `${GRID_CHECKBOX} ${className}` : GRID_CHECKBOX;
  if (label) {
    return (
      <label {...root} ref={ref as Ref<HTMLLabelElement>} className={rootClass}>
        {box}
        <span>{label}</span>
      </label>
    );
  }
  return (
    <span {...root} ref={ref as Ref<HTMLSpanElement>} className={rootClass}>
      {box}
    </span>
  );
});
