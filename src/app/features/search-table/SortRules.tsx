// The sort rules the grid's header cannot show (DataGrid's community edition keeps one
// sort, so the header shows the first rule and the rest live here). Each later rule is a chip: Enter
// or a click flips its direction, Delete or Backspace drops it. 'Then by...' (or 'Sort by...' when
// nothing sorts yet) adds a rule on any sortable parameter not already used; the MUI menu is a
// keyboard list (arrows, Enter, Escape), downloaded when first opened (./SortRuleMenu) and kept
// mounted afterwards, so it closes with its transition and gives focus back to the button.
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import { Suspense, useId, useState } from 'react';
import { retryableLazy } from '../../components/retryableLazy';
import type { SortRule } from '../../../fhir/search';
import type { TableSchema } from './tableSchema';

const SortRuleMenu = retryableLazy(() => import('./SortRuleMenu'));

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
  const [opened, setOpened] = useState(false);
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
        onClick={(event) => {
          setAnchor(event.currentTarget);
          setOpened(true);
        }}
      >
        {addLabel}
      </Button>
      {opened && (
        <Suspense fallback={null}>
          <SortRuleMenu
            id={menuId}
            label={addLabel}
            anchor={anchor}
            choices={choices}
            onClose={() => setAnchor(null)}
            onChoose={(code) => {
              setAnchor(null);
              onChange([...rules, { code }]);
            }}
          />
        </Suspense>
      )}
    </>
  );
}
