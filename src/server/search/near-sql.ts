// Location `near` (FHIR R4 search, special parameter): `latitude|longitude|distance|units`, the
// Locations whose position lies within the distance of the point, by great-circle (haversine)
// distance on the stored Location.position. Computed from the resource row, without an index:
// Location tables are small next to Observations, and a near search always names its point.
import { Operator, splitOrValues } from '../../fhir/search';
import type { Filter } from '../../fhir/search';
import type { SqlParams } from './sql-params';
import { invalid, splitBar, unescapeValue } from './kinds/probe';

/** Mean Earth radius (IUGG), in km. */
const EARTH_RADIUS_KM = 6371.0088;
/** The distance when the value names none (FHIR leaves it to the server). */
export const DEFAULT_NEAR_KM = 10;
/** UCUM length units a distance may be given in, as km. */
const KM_PER_UNIT: Record<string, number> = {
  km: 1,
  m: 0.001,
  '[mi_i]': 1.609344,
  mi: 1.609344,
  '[nmi_i]': 1.852,
};

interface NearQuery {
  latitude: number;
  longitude: number;
  km: number;
}

const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

/** `lat|lon[|distance[|units]]` → the point and radius, or a 400 naming `near`. */
export function parseNear(value: string): NearQuery {
  const parts = splitBar(unescapeValue(value));
  const fail = (why: string): never =>
    invalid(`'near' must be latitude|longitude|distance|units: ${why} in '${value}'`, 'near');
  if (parts.length < 2 || parts.length > 4) fail('two to four parts');
  const [lat, lon, distance = '', units = ''] = parts;
  if (!DECIMAL.test(lat) || Math.abs(Number(lat)) > 90) fail('latitude is a decimal in [-90, 90]');
  if (!DECIMAL.test(lon) || Math.abs(Number(lon)) > 180) fail('longitude is a decimal in [-180, 180]');
  if (distance && (!DECIMAL.test(distance) || Number(distance) < 0)) fail('distance is a positive decimal');
  const factor = KM_PER_UNIT[units || 'km'];
  if (factor === undefined) fail(`units are one of ${Object.keys(KM_PER_UNIT).join(', ')}`);
  return {
    latitude: Number(lat),
    longitude: Number(lon),
    km: distance ? Number(distance) * factor : DEFAULT_NEAR_KM,
  };
}

/** Distance in km between two points given as SQL expressions in degrees. */
function haversineKm(lat1: string, lon1: string, lat2: string, lon2: string): string {
  const a = `power(sin(radians((${lat2}) - (${lat1})) / 2), 2) + cos(radians(${lat1})) * cos(radians(${lat2})) * power(sin(radians((${lon2}) - (${lon1})) / 2), 2)`;
  return `(2 * ${EARTH_RADIUS_KM} * asin(least(1, sqrt(${a}))))`;
}

/** A condition on resource row `alias` (a Location): within the distance of any of the points. */
export function nearCondition(p: SqlParams, alias: string, filter: Filter): string {
  if (filter.operator !== Operator.EQUALS) {
    invalid(`Modifier ':${filter.operator}' is not supported on 'near'`, `near:${filter.operator}`);
  }
  const position = `${alias}.content->'position'`;
  const lat = `(${position}->>'latitude')::float8`;
  const lon = `(${position}->>'longitude')::float8`;
  const points = splitOrValues(filter.value).map((value) => {
    const near = parseNear(value);
    const distance = haversineKm(
      lat,
      lon,
      `${p.add(near.latitude)}::float8`,
      `${p.add(near.longitude)}::float8`,
    );
    return `${distance} <= ${p.add(near.km)}::float8`;
  });
  // CASE, not AND: PostgreSQL may evaluate AND's operands in any order, and the casts need numbers.
  const numeric = `jsonb_typeof(${position}->'latitude') = 'number' AND jsonb_typeof(${position}->'longitude') = 'number'`;
  return `(CASE WHEN ${numeric} THEN ${points.length === 1 ? points[0] : `(${points.join(' OR ')})`} ELSE false END)`;
}
