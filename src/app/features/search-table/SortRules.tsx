// The sort rules the grid's header cannot show (DataGrid's community edition keeps one
// sort, so the header shows the first rule and the rest live here). Each later rule is a chip: Enter
// or a click flips its direction, Delete or Backspace drops it. 'Then by...' (or 'Sort by...' when
// nothing sorts yet) adds a rule on any sortable parameter not already used; the MUI menu is a
// keyboard list (arrows, Enter, Escape), the shared LazyLinkMenu: downloaded when first opened, not
// with the table's first rows.
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import { useId, useState } from 'react';
import { LazyLinkMenu } from '../../components/LazyLinkMenu';
import type { SortRule } from '../../../fhir/search';
import type { TableSchema } from './tableSchema';

export interface SortRulesProps {
  readonly schema: TableSchema;
  readonly rules: readonly SortRule[];
  readonly onChange: (rules: SortRule[]) => void;
}

function direction(rule: SortRule): string {
  return rule.descending ? 'Z to A' : 'A to Z';
}

export function SortRules({ schema, rules, onChange }: SortRulesProps) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  const used = new Set(rules.map((rule) => rule.code));
  const choices = [...schema.parameters.values()]
    .filter((param) => param.type !== 'composite' && param.type !== 'special' && !used.has(param.code))
    .map((param) => param.code)
    .sort();
  const addLabel = rules.length === 0 ? 'Sort by...' : 'Then by...';
  return (
    <>
      {rules.slice(1).map((rule, index) => {
        const position = index + 1;
        return (
          <Chip
            key={rule.code}
            size="small"
            label={`then ${rule.code} ${direction(rule)}`}
            onClick={() =>
              onChange(
                rules.map((other, i) =>
                  i === position ? { ...other, descending: !other.descending } : other,
                ),
              )
            }
            onDelete={() => onChange(rules.filter((_, i) => i !== position))}
          />
        );
      })}
      <Button
        size="small"
        aria-haspopup="menu"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor ? true : undefined}
        disabled={choices.length === 0}
        id={`${menuId}-button`}
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        {addLabel}
      </Button>
      <LazyLinkMenu
        id={menuId}
        labelledBy={`${menuId}-button`}
        anchor={anchor}
        items={[]}
        actions={choices.map((code) => ({
          label: code,
          onSelect: () => onChange([...rules, { code }]),
        }))}
        onClose={() => setAnchor(null)}
      />
    </>
  );
}
