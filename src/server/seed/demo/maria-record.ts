// Maria Garcia's record, the main demo patient: 35 weeks pregnant on the seeding day, with
// gestational diabetes managed by diet, iron-deficiency anaemia and a positive group B strep swab.
import type { AppointmentSpec } from './appointments';
import type { DemoCalendar } from './calendar';
import type { MariaTimeline } from './care-timeline';
import type { ImmunizationSpec } from './immunizations';
import type { MedicationSpec } from './medications';
import type { MessageSpec } from './messages';

export function mariaMedications(timeline: MariaTimeline): MedicationSpec[] {
  return [
    {
      key: 'prenatal-vitamins',
      medication: 'Prenatal multivitamin with DHA, 1 tablet',
      status: 'active',
      authoredDaysFromToday: timeline.firstVisit,
      dosage: 'Take 1 tablet by mouth once daily with food.',
      reason: 'Pregnancy supplementation (folic acid, iodine, DHA)',
    },
    {
      key: 'ondansetron',
      medication: 'Ondansetron 4 mg orally disintegrating tablet',
      status: 'completed',
      authoredDaysFromToday: timeline.firstVisit,
      dosage: 'Dissolve 1 tablet on the tongue every 8 hours as needed for nausea.',
      reason: 'Nausea and vomiting of pregnancy',
      note: 'Stopped at 14 weeks once nausea settled.',
    },
    {
      key: 'ferrous-sulfate',
      medication: 'Ferrous sulfate 325 mg (65 mg elemental iron) tablet',
      status: 'active',
      authoredDaysFromToday: timeline.week28Visit,
      dosage: 'Take 1 tablet by mouth every other day with orange juice; not with tea, coffee or milk.',
      reason: 'Iron-deficiency anaemia of pregnancy (ferritin 6 ng/mL)',
    },
    {
      key: 'glucose-test-strips',
      medication: 'Blood glucose meter with test strips and lancets',
      status: 'active',
      authoredDaysFromToday: timeline.week28Visit,
      dosage: 'Check blood sugar fasting and 1 hour after each meal; send readings weekly.',
      reason: 'Gestational diabetes, diet controlled',
    },
    {
      key: 'docusate',
      medication: 'Docusate sodium 100 mg capsule',
      status: 'active',
      authoredDaysFromToday: timeline.week32Visit + 4,
      dosage: 'Take 1 capsule by mouth once or twice daily as needed for constipation.',
      reason: 'Constipation from iron supplements',
    },
  ];
}

export function mariaImmunizations(timeline: MariaTimeline): ImmunizationSpec[] {
  return [
    {
      key: 'influenza',
      vaccine: 'Influenza vaccine (inactivated, quadrivalent, preservative free)',
      cvx: { code: '150', display: 'Influenza, injectable, quadrivalent, preservative free' },
      daysFromToday: timeline.week28Visit,
      hour: 9,
      given: true,
      lotNumber: 'FLU-2418-B',
      note: 'Seasonal flu vaccine, recommended in any trimester. No reaction after 15 minutes.',
    },
    {
      key: 'tdap',
      vaccine: 'Tdap (tetanus, diphtheria, acellular pertussis)',
      cvx: { code: '115', display: 'Tdap' },
      daysFromToday: timeline.week36Visit,
      hour: 10,
      given: false,
      note: 'Due at the 36-week visit: protects the newborn against whooping cough.',
    },
  ];
}

export function mariaAppointments(timeline: MariaTimeline): AppointmentSpec[] {
  return [
    {
      key: 'first-visit',
      description: 'First prenatal visit and booking bloods',
      daysFromToday: timeline.firstVisit,
      hour: 9,
      reasons: ['booking-visit', 'dating-scan'],
    },
    {
      key: 'anatomy-scan',
      description: 'Anatomy ultrasound (20 weeks)',
      daysFromToday: timeline.anatomyScan,
      hour: 14,
      reasons: ['anatomy-scan'],
    },
    {
      key: 'week-28',
      description: 'Prenatal visit, glucose challenge and flu vaccine (28 weeks)',
      daysFromToday: timeline.week28Visit,
      hour: 9,
    },
    {
      key: 'week-32',
      description: 'Prenatal visit (32 weeks)',
      daysFromToday: timeline.week32Visit,
      hour: 10,
    },
    {
      key: 'week-34',
      description: 'Prenatal visit and urine check (34 weeks)',
      daysFromToday: timeline.week34Visit,
      hour: 10,
    },
    {
      key: 'week-35',
      description: 'Prenatal visit and group B strep swab (35 weeks)',
      daysFromToday: timeline.week35Visit,
      hour: 11,
    },
    {
      key: 'week-36',
      description: 'Prenatal visit and Tdap vaccine (36 weeks)',
      daysFromToday: timeline.week36Visit,
      hour: 10,
    },
    {
      key: 'week-37',
      description: 'Prenatal visit and birth plan review (37 weeks)',
      daysFromToday: timeline.week37Visit,
      hour: 14,
    },
  ];
}

export function mariaMessages(timeline: MariaTimeline, calendar: DemoCalendar): MessageSpec[] {
  const glucose = timeline.week28Visit;
  const gbsResult = timeline.week35Visit + 2;
  const tdapDate = new Date(calendar.at(timeline.week36Visit, 10)).toUTCString().slice(0, 11);
  return [
    {
      daysFromToday: glucose,
      hour: 17,
      minute: 20,
      from: 'practitioner',
      text:
        'Hi Maria, your one-hour glucose test came back at 192 mg/dL, which is high enough that we treat it as gestational diabetes. ' +
        "It is common and very manageable. I've referred you to our dietitian and prescribed a glucose meter: please check your sugar " +
        'fasting and one hour after each meal and send me the numbers next week.',
    },
    {
      daysFromToday: glucose,
      hour: 18,
      minute: 5,
      from: 'patient',
      text: "Thank you for letting me know so quickly. I'm a bit worried - does this put the baby at risk?",
    },
    {
      daysFromToday: glucose,
      hour: 18,
      minute: 40,
      from: 'practitioner',
      text:
        "That's a very fair question. With diet changes and monitoring, most people with gestational diabetes have healthy babies, and " +
        "we'll check the baby's growth at each visit. Your iron stores were also very low, so I've started ferrous sulfate: one tablet " +
        'every other day with orange juice, not with tea or milk.',
    },
    {
      daysFromToday: glucose + 7,
      hour: 8,
      minute: 30,
      from: 'patient',
      text: "This week's numbers: fasting 82-91, one hour after meals 110-128. The dietitian's plan is working!",
    },
    {
      daysFromToday: glucose + 7,
      hour: 12,
      minute: 10,
      from: 'practitioner',
      text: "Those are excellent - well within target (fasting under 95, after meals under 140). Keep it up and we'll review at 32 weeks.",
    },
    {
      daysFromToday: timeline.week32Visit + 3,
      hour: 20,
      minute: 15,
      from: 'patient',
      text: 'The iron is making me pretty constipated. Is there anything I can take?',
    },
    {
      daysFromToday: timeline.week32Visit + 4,
      hour: 9,
      minute: 5,
      from: 'practitioner',
      text:
        "Yes - docusate 100 mg once or twice a day is safe in pregnancy; I've sent it to your pharmacy. " +
        'Plenty of water, fruit and a daily walk help too.',
    },
    {
      daysFromToday: gbsResult,
      hour: 16,
      minute: 0,
      from: 'practitioner',
      text:
        'Your group B strep swab came back positive. About one in four pregnant people carry GBS and it does not harm you or the ' +
        "baby now. We'll give you IV penicillin during labour to protect the baby; there is nothing you need to do before then.",
    },
    {
      daysFromToday: gbsResult,
      hour: 19,
      minute: 30,
      from: 'patient',
      text: 'Okay, good to know. Is my Tdap shot at the next visit? And should I be counting kicks?',
    },
    {
      daysFromToday: gbsResult,
      hour: 20,
      minute: 5,
      from: 'practitioner',
      text:
        `Yes, Tdap is due at your 36-week visit on ${tdapDate}. And yes: once a day, when the baby is usually active, count ` +
        "until you feel 10 movements. If it takes more than two hours, call us straight away - we're here day and night.",
    },
  ];
}
