// The table's toolbar (SPEC §2): Fields, Filters, New..., Export..., Delete..., Bulk... (the last
// three hidden under the 768 px breakpoint of SPEC §9) and refresh, then the sort rules after the
// first (the one the grid's header shows) with a way to add one (./SortRules).
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import SvgIcon from '@mui/material/SvgIcon';
import type { SortRule } from '../../../fhir/search';
import { MOBILE_BREAKPOINT_PX } from '../../components/SideMenu';
import { SortRules } from './SortRules';
import type { TableSchema } from './tableSchema';

export interface TableToolbarProps {
  readonly resourceType: string;
  readonly schema: TableSchema;
  readonly sortRules: readonly SortRule[];
  readonly selectedCount: number;
  readonly onFields: () => void;
  readonly onFilters: () => void;
  readonly onNew: () => void;
  readonly onExport: () => void;
  readonly onDelete: () => void;
  readonly onBulk: () => void;
  readonly onRefresh: () => void;
  readonly onSortRulesChange: (rules: SortRule[]) => void;
}

/** Hidden below the mobile breakpoint; visible wherever media queries are not evaluated. */
const DESKTOP_ONLY = { [`@media (max-width: ${MOBILE_BREAKPOINT_PX - 0.05}px)`]: { display: 'none' } };

function RefreshIcon() {
  return (
    <SvgIcon aria-hidden>
      <path d="M17.65 6.35A7.96 7.96 0 0 0 12 4a8 8 0 1 0 7.73 10h-2.08A6 6 0 1 1 12 6c1.66 0 3.14.69 4.22 1.78L13 11h7V4z" />
    </SvgIcon>
  );
}

export function TableToolbar(props: TableToolbarProps) {
  const { sortRules, selectedCount } = props;
  return (
    <Box
      role="toolbar"
      aria-label={`${props.resourceType} table actions`}
      sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}
    >
      {/* Both list what the schema knows: they wait for it. */}
      <Button size="small" variant="outlined" disabled={props.schema.provisional} onClick={props.onFields}>
        Fields
      </Button>
      <Button size="small" variant="outlined" disabled={props.schema.provisional} onClick={props.onFilters}>
        Filters
      </Button>
      <Button size="small" variant="outlined" onClick={props.onNew}>
        New...
      </Button>
      <Button size="small" variant="outlined" onClick={props.onExport} sx={DESKTOP_ONLY}>
        Export...
      </Button>
      <Button
        size="small"
        variant="outlined"
        color="error"
        disabled={selectedCount === 0}
        onClick={props.onDelete}
        sx={DESKTOP_ONLY}
      >
        Delete...
      </Button>
      <Button
        size="small"
        variant="outlined"
        disabled={selectedCount === 0}
        onClick={props.onBulk}
        sx={DESKTOP_ONLY}
      >
        Bulk...
      </Button>
      <IconButton aria-label="Refresh" onClick={props.onRefresh}>
        <RefreshIcon />
      </IconButton>
      <SortRules schema={props.schema} rules={sortRules} onChange={props.onSortRulesChange} />
    </Box>
  );
}
