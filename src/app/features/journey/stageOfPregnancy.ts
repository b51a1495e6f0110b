// What happens at each stage of a pregnancy, in plain words for the timeline. General information that
// every clinic's leaflets share; the clinic's own schedule is the care plan below it on the screen.
interface Stage {
  /** First week of the stage (completed weeks since the last period). */
  readonly from: number;
  readonly text: string;
}

const STAGES: readonly Stage[] = [
  {
    from: 0,
    text: "Your baby's heart, brain and spine are forming. Tiredness and feeling sick are common now and usually ease by week 14.",
  },
  {
    from: 14,
    text: 'Many people feel more energy in these weeks. Your bump starts to show, and the anatomy scan checks how your baby is growing.',
  },
  {
    from: 20,
    text: 'You may start to feel your baby move. Your baby is growing fast and can hear sounds from outside.',
  },
  {
    from: 28,
    text: "Your baby is gaining weight and moves often; tell your care team at once if the movements slow down or change. It's time for the whooping cough vaccine.",
  },
  {
    from: 37,
    text: 'Your baby could arrive any day now. Keep your bag packed, and call your care team if your waters break, you bleed, or the movements change.',
  },
];

export function stageOfPregnancy(weeks: number): string {
  return [...STAGES].reverse().find((stage) => weeks >= stage.from)?.text ?? STAGES[0].text;
}

export function trimesterName(trimester: 1 | 2 | 3): string {
  return ['first', 'second', 'third'][trimester - 1] + ' trimester';
}
