// CSV export of the table's rows (SPEC §2 Export, §9 'Limited to 1000 records'): RFC 4180 quoting,
// and cells a spreadsheet would run as a formula (starting with =, +, -, @, or a tab/CR that hides
// one) get a leading apostrophe, so an exported value can never execute (OWASP CSV injection).
import { fieldLabel } from './tableSchema';
import { fieldText } from './fieldValue';

const FORMULA_START = /^[=+\-@\t\r]/;

/** A cell's text made safe for a spreadsheet and quoted when CSV needs it. */
export function csvCell(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** Header row of field labels, one row per resource, CRLF line ends (RFC 4180). */
export function resourcesToCsv(
  fields: readonly string[],
  resources: readonly Readonly<Record<string, unknown>>[],
): string {
  const lines = [fields.map((field) => csvCell(fieldLabel(field))).join(',')];
  for (const resource of resources) {
    lines.push(fields.map((field) => csvCell(fieldText(resource, field))).join(','));
  }
  return lines.join('\r\n') + '\r\n';
}
