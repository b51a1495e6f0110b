// The app's hot searches, each with a hand-written SQL query over the search
// engine's own tables (src/server/search/schema.ts: resource, search_reference, search_token,
// search_date, search_string, search_quantity) that fetches the same result: the floor the
// engine's generated SQL is compared against (for the vitals query, on the per-type table
// search_observation, and separately on the generic tables). Floors assume what the bench data guarantees (one
// date and one code per Observation), which the engine cannot assume.
import type { Database, SqlValue } from '../../src/server/db';
import type { SearchOptions } from '../../src/server/search/search-engine';
import { systemCodeKey } from '../../src/server/search/typed-tables';
import type { DatasetShape } from './dataset';
import { LOINC, SLOT_START, VITALS } from './dataset';

export interface HotQuery {
  name: string;
  /** A search URL (type and query) for a target chosen with `random`. */
  pick(random: () => number): Target;
  /** The engine runs with these (a layout comparison, left out of the HTTP mix). */
  searchOptions?: SearchOptions;
}

export interface Target {
  url: string;
  /** The floor: the ids of the matches (in order) and of the included resources. */
  floor(db: Database): Promise<{ matches: string[]; included: string[] }>;
}

async function ids(db: Database, sql: string, params: readonly SqlValue[]): Promise<string[]> {
  const result = await db.query<{ id: string; content: unknown }>(sql, params);
  return result.rows.map((row) => row.id);
}

const iso = (ms: number): string => new Date(ms).toISOString().replace('.000Z', 'Z');

/**
 * The vitals query, on the layout the engine chooses (the per-type table, typed-tables.ts) or on
 * the generic tables only, each next to a hand-written floor on the same tables: the measurement
 * behind the choice of layout.
 */
function observationQuery(patient: (random: () => number) => string, layout: 'typed' | 'generic'): HotQuery {
  const generic = layout === 'generic';
  return {
    name: `Observation?patient&code&_sort=-date&_count=20${generic ? ' (generic tables only)' : ''}`,
    ...(generic ? { searchOptions: { typedTables: false } } : {}),
    pick(random) {
      const id = patient(random);
      const code = VITALS[Math.floor(random() * VITALS.length)].code;
      const floorSql = generic
        ? `SELECT r.id, r.content FROM search_reference p
           JOIN search_token c ON c.resource_id = p.resource_id AND c.resource_type = 'Observation' AND c.code = 'code'
             AND c.value = $2 AND c.system = $3
           JOIN search_date d ON d.resource_id = p.resource_id AND d.resource_type = 'Observation' AND d.code = 'date'
           JOIN resource r ON r.resource_type = 'Observation' AND r.id = p.resource_id AND NOT r.deleted
           WHERE p.resource_type = 'Observation' AND p.code = 'patient' AND p.target_type = 'Patient' AND p.target_id = $1
           ORDER BY d.high DESC, r.id LIMIT 20`
        : `SELECT r.id, r.content FROM search_observation o
           JOIN resource r ON r.resource_type = 'Observation' AND r.id = o.resource_id AND NOT r.deleted
           WHERE o.patient_id = $1 AND o.codes @> ARRAY[$2]
           ORDER BY o.date_high DESC NULLS LAST, o.resource_id LIMIT 20`;
      return {
        url: `Observation?patient=Patient/${id}&code=${LOINC}|${code}&_sort=-date&_count=20`,
        floor: async (db) => ({
          matches: await ids(db, floorSql, generic ? [id, code, LOINC] : [id, systemCodeKey(LOINC, code)]),
          included: [],
        }),
      };
    },
  };
}

export function hotQueries(shape: DatasetShape): HotQuery[] {
  const patient = (random: () => number): string => `p-${Math.floor(random() * shape.patients)}`;
  return [
    observationQuery(patient, 'typed'),
    observationQuery(patient, 'generic'),
    {
      name: 'DiagnosticReport?subject&_sort=-_lastUpdated',
      pick(random) {
        const id = patient(random);
        return {
          url: `DiagnosticReport?subject=Patient/${id}&_sort=-_lastUpdated`,
          floor: async (db) => ({
            matches: await ids(
              db,
              `SELECT r.id, r.content FROM search_reference p
               JOIN resource r ON r.resource_type = 'DiagnosticReport' AND r.id = p.resource_id AND NOT r.deleted
               WHERE p.resource_type = 'DiagnosticReport' AND p.code = 'subject' AND p.target_type = 'Patient' AND p.target_id = $1
               ORDER BY r.last_updated DESC, r.id LIMIT 20`,
              [id],
            ),
            included: [],
          }),
        };
      },
    },
    {
      name: 'Communication?subject&_sort=-sent',
      pick(random) {
        const id = patient(random);
        return {
          url: `Communication?subject=Patient/${id}&_sort=-sent`,
          floor: async (db) => ({
            matches: await ids(
              db,
              `SELECT r.id, r.content FROM search_reference p
               JOIN search_date d ON d.resource_id = p.resource_id AND d.resource_type = 'Communication' AND d.code = 'sent'
               JOIN resource r ON r.resource_type = 'Communication' AND r.id = p.resource_id AND NOT r.deleted
               WHERE p.resource_type = 'Communication' AND p.code = 'subject' AND p.target_type = 'Patient' AND p.target_id = $1
               ORDER BY d.high DESC, r.id LIMIT 20`,
              [id],
            ),
            included: [],
          }),
        };
      },
    },
    {
      name: 'Slot?schedule&start=gt&start=lt&_count=720',
      pick(random) {
        const schedule = `s-${Math.floor(random() * shape.schedules)}`;
        const from = SLOT_START + Math.floor(random() * 10) * 86_400_000;
        const to = from + 31 * 86_400_000;
        return {
          url: `Slot?schedule=Schedule/${schedule}&start=gt${iso(from)}&start=lt${iso(to)}&_count=720`,
          floor: async (db) => ({
            // Slots start on the hour: "after the second `from`" is start > from, "before `to`" is start < to.
            matches: await ids(
              db,
              `SELECT r.id, r.content FROM search_reference p
               JOIN search_date d ON d.resource_id = p.resource_id AND d.resource_type = 'Slot' AND d.code = 'start'
               JOIN resource r ON r.resource_type = 'Slot' AND r.id = p.resource_id AND NOT r.deleted
               WHERE p.resource_type = 'Slot' AND p.code = 'schedule' AND p.target_type = 'Schedule' AND p.target_id = $1
                 AND d.low > $2::timestamptz AND d.low < $3::timestamptz
               ORDER BY r.id LIMIT 720`,
              [schedule, iso(from), iso(to)],
            ),
            included: [],
          }),
        };
      },
    },
    {
      name: 'Patient?name=smi',
      pick() {
        return {
          url: 'Patient?name=smi',
          floor: async (db) => ({
            matches: await ids(
              db,
              `SELECT r.id, r.content FROM resource r
               WHERE r.resource_type = 'Patient' AND NOT r.deleted AND r.id IN (
                 SELECT s.resource_id FROM search_string s
                 WHERE s.resource_type = 'Patient' AND s.code = 'name' AND s.value LIKE 'smi%')
               ORDER BY r.id LIMIT 20`,
              [],
            ),
            included: [],
          }),
        };
      },
    },
    {
      name: 'Observation?value-quantity=gt100',
      pick() {
        return {
          url: 'Observation?value-quantity=gt100',
          floor: async (db) => ({
            matches: await ids(
              db,
              `SELECT r.id, r.content FROM resource r
               WHERE r.resource_type = 'Observation' AND NOT r.deleted AND r.id IN (
                 SELECT q.resource_id FROM search_quantity q
                 WHERE q.resource_type = 'Observation' AND q.code = 'value-quantity' AND q.value > 100)
               ORDER BY r.id LIMIT 20`,
              [],
            ),
            included: [],
          }),
        };
      },
    },
    {
      name: 'DiagnosticReport?subject&_include=DiagnosticReport:result',
      pick(random) {
        const id = patient(random);
        return {
          url: `DiagnosticReport?subject=Patient/${id}&_include=DiagnosticReport:result`,
          floor: async (db) => {
            const matches = await ids(
              db,
              `SELECT r.id, r.content FROM search_reference p
               JOIN resource r ON r.resource_type = 'DiagnosticReport' AND r.id = p.resource_id AND NOT r.deleted
               WHERE p.resource_type = 'DiagnosticReport' AND p.code = 'subject' AND p.target_type = 'Patient' AND p.target_id = $1
               ORDER BY r.id LIMIT 20`,
              [id],
            );
            const included = await ids(
              db,
              `SELECT DISTINCT o.id, o.content FROM search_reference x
               JOIN resource o ON o.resource_type = x.target_type AND o.id = x.target_id AND NOT o.deleted
               WHERE x.resource_type = 'DiagnosticReport' AND x.code = 'result' AND x.resource_id = ANY($1)`,
              [matches],
            );
            return { matches, included };
          },
        };
      },
    },
    {
      name: 'Patient?_id&_revinclude=DiagnosticReport:subject',
      pick(random) {
        const id = patient(random);
        return {
          url: `Patient?_id=${id}&_revinclude=DiagnosticReport:subject`,
          floor: async (db) => {
            const matches = await ids(
              db,
              `SELECT r.id, r.content FROM resource r WHERE r.resource_type = 'Patient' AND r.id = $1 AND NOT r.deleted`,
              [id],
            );
            const included = await ids(
              db,
              `SELECT r.id, r.content FROM search_reference p
               JOIN resource r ON r.resource_type = 'DiagnosticReport' AND r.id = p.resource_id AND NOT r.deleted
               WHERE p.resource_type = 'DiagnosticReport' AND p.code = 'subject' AND p.target_type = 'Patient' AND p.target_id = ANY($1)`,
              [matches],
            );
            return { matches, included };
          },
        };
      },
    },
  ];
}
