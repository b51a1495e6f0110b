// A bot written as Medplum bots are (existing bots run unchanged), type-checked
// against the real @medplum/core and @medplum/fhirtypes. The tests compile it with TypeScript to
// the CommonJS a Medplum bot deploys as, and to an ES module, and run both in the sandbox.
// ADT^A01 (admit): finds the patient by MRN (PID-3) or creates her from PID-5, records an
// Encounter for the visit (MSH-10) and answers an ACK; any other message is refused with AR.
import { createReference, getReferenceString } from '@medplum/core';
import type { BotEvent, Hl7Message, MedplumClient } from '@medplum/core';
import type { Encounter, Patient } from '@medplum/fhirtypes';

const MRN_SYSTEM = 'urn:bloom:test:mrn';
const VISIT_SYSTEM = 'urn:bloom:test:visit';

export async function handler(medplum: MedplumClient, event: BotEvent<Hl7Message>): Promise<Hl7Message> {
  const message = event.input;
  const msh = message.getSegment('MSH');
  const pid = message.getSegment('PID');
  if (msh?.getComponent(9, 1) !== 'ADT' || msh.getComponent(9, 2) !== 'A01') {
    return message.buildAck({ ackCode: 'AR' });
  }
  const mrn = pid?.getComponent(3, 1);
  if (!pid || !mrn) {
    return message.buildAck({ ackCode: 'AE' });
  }
  const patient =
    (await medplum.searchOne('Patient', { identifier: `${MRN_SYSTEM}|${mrn}` })) ??
    (await medplum.createResource<Patient>({
      resourceType: 'Patient',
      identifier: [{ system: MRN_SYSTEM, value: mrn }],
      name: [{ family: pid.getComponent(5, 1), given: [pid.getComponent(5, 2)] }],
    }));
  const encounter = await medplum.createResource<Encounter>({
    resourceType: 'Encounter',
    status: 'in-progress',
    class: { system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode', code: 'IMP' },
    identifier: [{ system: VISIT_SYSTEM, value: msh.getField(10).toString() }],
    subject: createReference(patient),
  });
  console.log(`admitted ${getReferenceString(patient)} in ${getReferenceString(encounter)}`);
  return message.buildAck();
}
