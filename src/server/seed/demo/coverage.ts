// Each patient's health insurance (what Medplum's patient portal lists under coverage): an
// active Coverage with the patient as beneficiary and subscriber, paid by the demo's insurer, an
// Organization of its own. Periods have a start only: the demo keeps every date within 46 days ahead.
import type { Coverage, Organization, Patient, Reference } from '@medplum/fhirtypes';
import type { DemoContext } from './demo-context';

export interface CoverageSpec {
  patient: Reference<Patient>;
  patientKey: string;
  subscriberId: string;
  plan: string;
  /** Day offset (negative: past) the policy started. */
  startDaysFromToday: number;
}

/** The demo's insurer, the payor of every demo Coverage. */
export function addInsurer({ tx }: DemoContext): Reference<Organization> {
  return tx.add<Organization>(
    'organization-prairie-health',
    {
      resourceType: 'Organization',
      active: true,
      name: 'Prairie Health Insurance',
      type: [
        {
          coding: [
            {
              system: 'http://terminology.hl7.org/CodeSystem/organization-type',
              code: 'pay',
              display: 'Payer',
            },
          ],
        },
      ],
      telecom: [{ system: 'phone', value: '+1-800-555-0199', use: 'work' }],
    },
    'Prairie Health Insurance',
  );
}

export function addCoverage(
  { tx, calendar }: DemoContext,
  payor: Reference<Organization>,
  spec: CoverageSpec,
): Reference<Coverage> {
  return tx.add<Coverage>(`coverage-${spec.patientKey}`, {
    resourceType: 'Coverage',
    status: 'active',
    type: {
      coding: [
        {
          system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode',
          code: 'HIP',
          display: 'health insurance plan policy',
        },
      ],
      text: 'Health insurance',
    },
    subscriber: spec.patient,
    subscriberId: spec.subscriberId,
    beneficiary: spec.patient,
    relationship: {
      coding: [
        {
          system: 'http://terminology.hl7.org/CodeSystem/subscriber-relationship',
          code: 'self',
          display: 'Self',
        },
      ],
    },
    period: { start: calendar.date(spec.startDaysFromToday) },
    payor: [payor],
    class: [
      {
        type: {
          coding: [
            { system: 'http://terminology.hl7.org/CodeSystem/coverage-class', code: 'plan', display: 'Plan' },
          ],
        },
        value: spec.plan,
        name: spec.plan,
      },
    ],
  });
}
