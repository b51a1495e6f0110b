// The clinic's prenatal care service, as Medplum's scheduling screens look it up: a HealthcareService
// whose `type` is the very coding of Dr. Chen's Schedule `serviceType` (schedule.ts), provided by the
// clinic at its location.
import type { HealthcareService, Location, Organization, Reference } from '@medplum/fhirtypes';
import { PRENATAL_CARE_SERVICE } from './codes';
import type { DemoContext } from './demo-context';
import { CLINIC_CLOSING_HOUR_UTC, CLINIC_OPENING_HOUR_UTC, PRENATAL_SERVICE_KEY } from './schedule';

export interface ServiceProviders {
  clinic: Reference<Organization>;
  location: Reference<Location>;
}

export function addHealthcareService(
  { tx }: DemoContext,
  { clinic, location }: ServiceProviders,
): Reference<HealthcareService> {
  const hour = (h: number): string => `${String(h).padStart(2, '0')}:00:00`;
  return tx.add<HealthcareService>(
    PRENATAL_SERVICE_KEY,
    {
      resourceType: 'HealthcareService',
      active: true,
      providedBy: clinic,
      type: [structuredClone(PRENATAL_CARE_SERVICE)],
      name: 'Prenatal care',
      comment: 'Visits with Dr. Lily Chen from the first weeks of pregnancy to birth.',
      location: [location],
      telecom: [{ system: 'email', value: 'care@bloom.example', use: 'work' }],
      appointmentRequired: true,
      availableTime: [
        {
          daysOfWeek: ['mon', 'tue', 'wed', 'thu', 'fri'],
          availableStartTime: hour(CLINIC_OPENING_HOUR_UTC),
          availableEndTime: hour(CLINIC_CLOSING_HOUR_UTC),
        },
      ],
    },
    'Prenatal care',
  );
}
