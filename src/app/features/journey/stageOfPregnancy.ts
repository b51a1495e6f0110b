// What happens at each stage of a pregnancy, in plain words for the timeline. General information that
// every clinic's leaflets share; the clinic's own schedule is the care plan below it on the screen.
import type { Message } from '../../i18n/catalog';
import { journeyStrings } from './strings';

interface Stage {
  /** First week of the stage (completed weeks since the last period). */
  readonly from: number;
  readonly text: Message;
}

const STAGES: readonly Stage[] = [
  { from: 0, text: journeyStrings.stage0 },
  { from: 14, text: journeyStrings.stage14 },
  { from: 20, text: journeyStrings.stage20 },
  { from: 28, text: journeyStrings.stage28 },
  { from: 37, text: journeyStrings.stage37 },
];

export function stageOfPregnancy(weeks: number): Message {
  return [...STAGES].reverse().find((stage) => weeks >= stage.from)?.text ?? STAGES[0].text;
}

export function trimesterName(trimester: 1 | 2 | 3): Message {
  return [journeyStrings.trimester1, journeyStrings.trimester2, journeyStrings.trimester3][trimester - 1];
}
