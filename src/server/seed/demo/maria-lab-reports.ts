// Maria's laboratory reports. The story: O-positive blood, not immune to rubella (MMR after
// delivery), a high one-hour glucose challenge and low ferritin at 28 weeks (gestational diabetes
// managed by diet; iron started), a trace of protein at 34 weeks, and a positive group B strep swab
// at 35 weeks (antibiotics in labour). Interpretations include the critical codes HH, LL, AA and A
// (SPEC §4/§9).
import { diagnosticSection, loinc } from './codes';
import type { MariaTimeline } from './care-timeline';
import type { LabReportSpec } from './lab-reports';

const venousBlood = (key: string, type: string, hour: number, note: string) => ({
  key,
  type,
  collectedHour: hour,
  collectedMinute: 15,
  receivedAfterMinutes: 45,
  note,
});

export function mariaLabReports(timeline: MariaTimeline): LabReportSpec[] {
  return [
    {
      key: 'blood-type',
      code: loinc('882-1', 'ABO and Rh group [Type] in Blood', 'Blood type and antibody screen'),
      section: diagnosticSection('BLB', 'Blood Bank'),
      collectedDaysFromToday: timeline.firstVisit,
      issuedAfterDays: 1,
      specimens: [
        venousBlood(
          'edta',
          'Whole blood (EDTA)',
          9,
          'Drawn at the first prenatal visit; labelled at bedside.',
        ),
      ],
      results: [
        {
          key: 'abo',
          code: loinc('883-9', 'ABO group [Type] in Blood', 'ABO group'),
          value: 'O',
          range: { text: 'A, B, AB or O' },
          interpretation: 'N',
        },
        {
          key: 'rh',
          code: loinc('10331-7', 'Rh [Type] in Blood', 'Rh(D) type'),
          value: 'Positive',
          range: { text: 'Positive or negative' },
          interpretation: 'N',
          note: 'Rh(D) positive: no anti-D immunoglobulin needed.',
        },
        {
          key: 'antibody-screen',
          code: loinc(
            '890-4',
            'Blood group antibody screen [Presence] in Serum or Plasma',
            'Antibody screen',
          ),
          value: 'Negative',
          range: { text: 'Negative' },
          interpretation: 'N',
        },
      ],
      conclusion: 'Blood group O, Rh(D) positive; no red cell antibodies detected.',
    },
    {
      key: 'rubella',
      code: loinc('5334-8', 'Rubella virus IgG Ab [Units/volume] in Serum or Plasma', 'Rubella immunity'),
      section: diagnosticSection('SR', 'Serology'),
      collectedDaysFromToday: timeline.firstVisit,
      issuedAfterDays: 2,
      specimens: [venousBlood('serum', 'Serum', 9, 'Gold-top tube, spun within 30 minutes.')],
      results: [
        {
          key: 'igg',
          code: loinc('5334-8', 'Rubella virus IgG Ab [Units/volume] in Serum or Plasma', 'Rubella IgG'),
          value: { value: 6.2, unit: 'IU/mL', ucum: '[iU]/mL' },
          range: { low: 10, text: '>= 10 IU/mL (immune)' },
          interpretation: 'L',
        },
        {
          key: 'status',
          code: loinc('25514-1', 'Rubella virus IgG Ab [Presence] in Serum', 'Rubella immune status'),
          value: 'Non-immune',
          range: { text: 'Immune' },
          interpretation: 'A',
          note: 'Not immune to rubella: avoid contact with rash illness; MMR vaccine recommended after delivery.',
        },
      ],
      conclusion: 'Non-immune to rubella. Offer MMR postpartum.',
    },
    {
      key: 'cbc',
      code: loinc('58410-2', 'CBC panel - Blood by Automated count', 'Complete blood count'),
      section: diagnosticSection('HM', 'Hematology'),
      collectedDaysFromToday: timeline.week28Visit,
      issuedAfterDays: 0,
      specimens: [venousBlood('edta', 'Whole blood (EDTA)', 9, 'Drawn before the glucose drink.')],
      results: [
        {
          key: 'wbc',
          code: loinc('6690-2', 'Leukocytes [#/volume] in Blood by Automated count', 'White blood cells'),
          value: { value: 10.4, unit: '10*3/uL', ucum: '10*3/uL' },
          range: { low: 4.5, high: 13.0, text: '4.5-13.0 10*3/uL (pregnancy)' },
          interpretation: 'N',
        },
        {
          key: 'hemoglobin',
          code: loinc('718-7', 'Hemoglobin [Mass/volume] in Blood', 'Hemoglobin'),
          value: { value: 9.8, unit: 'g/dL', ucum: 'g/dL' },
          range: { low: 10.5, high: 14.0, text: '10.5-14.0 g/dL (third trimester)' },
          interpretation: 'L',
          note: 'Mild anaemia of pregnancy; see ferritin.',
        },
        {
          key: 'hematocrit',
          code: loinc('4544-3', 'Hematocrit [Volume Fraction] of Blood by Automated count', 'Hematocrit'),
          value: { value: 29.6, unit: '%', ucum: '%' },
          range: { low: 31, high: 41, text: '31-41 %' },
          interpretation: 'L',
        },
        {
          key: 'mcv',
          code: loinc('787-2', 'MCV [Entitic volume] by Automated count', 'Mean corpuscular volume'),
          value: { value: 77, unit: 'fL', ucum: 'fL' },
          range: { low: 80, high: 100, text: '80-100 fL' },
          interpretation: 'L',
        },
        {
          key: 'platelets',
          code: loinc('777-3', 'Platelets [#/volume] in Blood by Automated count', 'Platelets'),
          value: { value: 226, unit: '10*3/uL', ucum: '10*3/uL' },
          range: { low: 150, high: 400, text: '150-400 10*3/uL' },
          interpretation: 'N',
        },
      ],
      conclusion: 'Microcytic anaemia, consistent with iron deficiency.',
      withPdf: true,
    },
    {
      key: 'ferritin',
      code: loinc('2276-4', 'Ferritin [Mass/volume] in Serum or Plasma', 'Ferritin'),
      section: diagnosticSection('CH', 'Chemistry'),
      collectedDaysFromToday: timeline.week28Visit,
      issuedAfterDays: 1,
      specimens: [venousBlood('serum', 'Serum', 9, 'Drawn with the complete blood count.')],
      results: [
        {
          key: 'ferritin',
          code: loinc('2276-4', 'Ferritin [Mass/volume] in Serum or Plasma', 'Ferritin'),
          value: { value: 6, unit: 'ng/mL', ucum: 'ng/mL' },
          range: { low: 15, high: 150, text: '15-150 ng/mL' },
          interpretation: 'LL',
          note: 'Iron stores depleted. Called to Dr. Chen; oral iron started.',
        },
      ],
      conclusion: 'Depleted iron stores: start ferrous sulfate and recheck in 4 weeks.',
    },
    {
      key: 'glucose-challenge',
      code: loinc(
        '1504-0',
        'Glucose [Mass/volume] in Serum or Plasma --1 hour post 50 g glucose PO',
        'Glucose challenge test',
      ),
      section: diagnosticSection('CH', 'Chemistry'),
      collectedDaysFromToday: timeline.week28Visit,
      issuedAfterDays: 0,
      specimens: [
        {
          key: 'plasma',
          type: 'Plasma (fluoride oxalate)',
          collectedHour: 10,
          collectedMinute: 20,
          receivedAfterMinutes: 20,
          note: 'Drawn one hour after a 50 g glucose drink; patient did not need to fast.',
        },
      ],
      results: [
        {
          key: 'glucose-1h',
          code: loinc(
            '1504-0',
            'Glucose [Mass/volume] in Serum or Plasma --1 hour post 50 g glucose PO',
            'Glucose, 1 hour after 50 g',
          ),
          value: { value: 192, unit: 'mg/dL', ucum: 'mg/dL' },
          range: { high: 139, text: '< 140 mg/dL' },
          interpretation: 'HH',
          note: 'At or above 190 mg/dL: treated as gestational diabetes without a 3-hour test.',
        },
      ],
      conclusion:
        'Markedly raised one-hour glucose: gestational diabetes. Diet plan and home glucose monitoring.',
    },
    {
      key: 'urinalysis',
      code: loinc('24357-6', 'Urinalysis macro (dipstick) panel - Urine', 'Urinalysis'),
      section: diagnosticSection('URN', 'Urinalysis'),
      collectedDaysFromToday: timeline.week34Visit,
      issuedAfterDays: 0,
      specimens: [
        {
          key: 'urine',
          type: 'Urine, clean catch midstream',
          collectedHour: 10,
          receivedAfterMinutes: 15,
          note: 'Clean-catch sample given at the 34-week visit.',
        },
      ],
      results: [
        {
          key: 'protein',
          code: loinc('5804-0', 'Protein [Mass/volume] in Urine by Test strip', 'Protein'),
          value: 'Trace',
          range: { text: 'Negative' },
          interpretation: 'A',
          note: 'Blood pressure normal; repeat at the next visit.',
        },
        {
          key: 'glucose',
          code: loinc('5792-7', 'Glucose [Mass/volume] in Urine by Test strip', 'Glucose'),
          value: 'Negative',
          range: { text: 'Negative' },
          interpretation: 'N',
        },
        {
          key: 'nitrite',
          code: loinc('5802-4', 'Nitrite [Presence] in Urine by Test strip', 'Nitrite'),
          value: 'Negative',
          range: { text: 'Negative' },
          interpretation: 'N',
        },
        {
          key: 'leukocyte-esterase',
          code: loinc('5799-2', 'Leukocyte esterase [Presence] in Urine by Test strip', 'Leukocyte esterase'),
          value: 'Negative',
          range: { text: 'Negative' },
          interpretation: 'N',
        },
        {
          key: 'specific-gravity',
          code: loinc('5811-5', 'Specific gravity of Urine by Test strip', 'Specific gravity'),
          value: { value: 1.015, unit: '1', ucum: '1' },
          range: { low: 1.005, high: 1.03, text: '1.005-1.030' },
          interpretation: 'N',
        },
      ],
      conclusion: 'Trace proteinuria with normal blood pressure; no sign of infection.',
    },
    {
      key: 'group-b-strep',
      code: loinc(
        '72607-5',
        'Streptococcus agalactiae [Presence] in Vaginal fluid+Rectum by Organism specific culture',
        'Group B strep culture',
      ),
      section: diagnosticSection('MB', 'Microbiology'),
      collectedDaysFromToday: timeline.week35Visit,
      issuedAfterDays: 2,
      specimens: [
        {
          key: 'swab',
          type: 'Vaginal-rectal swab',
          collectedHour: 11,
          receivedAfterMinutes: 90,
          note: 'Single swab, lower vagina then rectum, in Amies transport medium.',
        },
      ],
      results: [
        {
          key: 'culture',
          code: loinc(
            '72607-5',
            'Streptococcus agalactiae [Presence] in Vaginal fluid+Rectum by Organism specific culture',
            'Group B Streptococcus',
          ),
          value: 'Detected',
          range: { text: 'Not detected' },
          interpretation: 'AA',
          note: 'GBS colonisation: intrapartum antibiotic prophylaxis (penicillin G) required. No penicillin allergy on file.',
        },
      ],
      conclusion: 'Group B Streptococcus detected. Plan intravenous penicillin in labour.',
    },
  ];
}
