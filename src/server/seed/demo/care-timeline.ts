// When things happen in each pregnancy, as day offsets from the seeding day. Visits are pinned to
// gestational ages (e.g. the 28-week visit) and moved to the nearest weekday, so labs, vitals,
// appointments and messages that refer to the same visit agree with each other.
import type { DemoCalendar } from './calendar';
import { GESTATION_TODAY } from './patients';

export interface MariaTimeline {
  firstVisit: number;
  anatomyScan: number;
  week28Visit: number;
  week32Visit: number;
  week34Visit: number;
  week35Visit: number;
  /** Upcoming: the 36-week visit, when Tdap is due. */
  week36Visit: number;
  /** Upcoming: the 37-week visit. */
  week37Visit: number;
}

export interface AishaTimeline {
  firstVisit: number;
  anatomyScan: number;
  /** Upcoming: the 24-week visit. */
  week24Visit: number;
}

/** Offset of the weekday nearest before (past) or after (future) a gestational age. */
function visitDay(calendar: DemoCalendar, gestationToday: number, weeks: number, days: number): number {
  const offset = weeks * 7 + days - gestationToday;
  return offset < 0 ? calendar.weekdayOnOrBefore(offset) : calendar.weekdayOnOrAfter(offset);
}

export function mariaTimeline(calendar: DemoCalendar): MariaTimeline {
  const at = (weeks: number, days: number): number => visitDay(calendar, GESTATION_TODAY.maria, weeks, days);
  return {
    firstVisit: at(9, 4),
    anatomyScan: at(20, 1),
    week28Visit: at(28, 1),
    week32Visit: at(32, 1),
    week34Visit: at(34, 1),
    week35Visit: at(35, 1),
    week36Visit: at(36, 1),
    week37Visit: at(37, 1),
  };
}

export function aishaTimeline(calendar: DemoCalendar): AishaTimeline {
  const at = (weeks: number, days: number): number => visitDay(calendar, GESTATION_TODAY.aisha, weeks, days);
  return {
    firstVisit: at(10, 2),
    anatomyScan: at(20, 2),
    week24Visit: at(24, 2),
  };
}
