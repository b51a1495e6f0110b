// The grid's native checkboxes (GridCheckbox, DataGrid's baseCheckbox slot): named by the grid's
// aria-label, checked and changed as MUI's were, "some selected" as the indeterminate state, and
// focusable only when the grid's keyboard navigation says so (tabIndex).
import { fireEvent, render, screen } from '@testing-library/react';
import { GridCheckbox } from '../../../../src/app/features/search-table/GridCheckbox';

describe("SPEC §2 the table's selection checkboxes", () => {
  it('a row checkbox: its name, its state, a change reported, the tab stop the grid gives it', () => {
    const onChange = jest.fn();
    const { rerender } = render(
      <GridCheckbox
        checked={false}
        onChange={onChange}
        tabIndex={-1}
        slotProps={{ htmlInput: { 'aria-label': 'Select row', name: 'select_row' } }}
      />,
    );
    const box = screen.getByRole('checkbox', { name: 'Select row' });
    expect(box).not.toBeChecked();
    expect(box).toHaveAttribute('tabindex', '-1');
    fireEvent.click(box);
    expect(onChange).toHaveBeenCalledTimes(1);
    rerender(
      <GridCheckbox
        checked
        onChange={onChange}
        tabIndex={0}
        slotProps={{ htmlInput: { 'aria-label': 'Unselect row', name: 'select_row' } }}
      />,
    );
    expect(screen.getByRole('checkbox', { name: 'Unselect row' })).toBeChecked();
    expect(screen.getByRole('checkbox')).toHaveAttribute('tabindex', '0');
  });

  it('"Select all rows" with some rows selected is indeterminate, and stops being so', () => {
    const props = {
      checked: false,
      onChange: () => undefined,
      slotProps: { htmlInput: { 'aria-label': 'Select all rows' } },
    };
    const { rerender } = render(<GridCheckbox {...props} indeterminate />);
    const box = screen.getByRole<HTMLInputElement>('checkbox', { name: 'Select all rows' });
    expect(box.indeterminate).toBe(true);
    rerender(<GridCheckbox {...props} indeterminate={false} />);
    expect(box.indeterminate).toBe(false);
  });

  it('with a label (the column manager), the label names it; the grid reaches the input by its ref', () => {
    const inputRef = jest.fn();
    render(<GridCheckbox checked onChange={() => undefined} label="Status" disabled inputRef={inputRef} />);
    const box = screen.getByRole('checkbox', { name: 'Status' });
    expect(box).toBeChecked();
    expect(box).toBeDisabled();
    expect(inputRef).toHaveBeenCalledWith(box);
  });
});
