// AccessPolicy writeConstraint as Medplum's server evaluates it: FHIRPath over
// the new version with %before (empty on a create) and %after; a write passes only when every
// constraint is exactly `true`. The demo patient policy's thread-header rule is checked here on its own.
import type { AccessPolicyResource, Communication } from '@medplum/fhirtypes';
import { OperationOutcomeError } from '../../../src/fhir/outcomes';
import { writeConstraintsHold } from '../../../src/server/repo/write-constraints';
import { THREAD_HEADER_UPDATE } from '../../../src/server/seed/demo-accounts';

const entry = (...expressions: string[]): AccessPolicyResource => ({
  resourceType: 'Communication',
  writeConstraint: expressions.map((expression) => ({ language: 'text/fhirpath', expression })),
});

const header: Communication = {
  resourceType: 'Communication',
  id: 't1',
  status: 'in-progress',
  subject: { reference: 'Patient/maria' },
  topic: { text: 'Questions for Dr. Chen' },
};
const message: Communication = {
  resourceType: 'Communication',
  id: 'm1',
  status: 'completed',
  partOf: [{ reference: 'Communication/t1' }],
  subject: { reference: 'Patient/maria' },
};

describe('AccessPolicy writeConstraint', () => {
  test('no entry or no constraints: allowed; every constraint must be exactly true', () => {
    expect(writeConstraintsHold(undefined, undefined, header)).toBe(true);
    expect(writeConstraintsHold({ resourceType: 'Communication' }, undefined, header)).toBe(true);
    expect(writeConstraintsHold(entry("%after.status = 'in-progress'"), undefined, header)).toBe(true);
    expect(writeConstraintsHold(entry('true', "%after.status = 'completed'"), undefined, header)).toBe(false);
    // Not a single boolean: refused.
    expect(writeConstraintsHold(entry('%after.subject'), undefined, header)).toBe(false);
    expect(writeConstraintsHold(entry('{}'), undefined, header)).toBe(false);
  });

  test('%before is empty on a create and the current version on an update', () => {
    const unchangedStatus = entry('%before.exists() implies %before.status = %after.status');
    expect(writeConstraintsHold(unchangedStatus, undefined, header)).toBe(true);
    expect(writeConstraintsHold(unchangedStatus, header, { ...header, topic: { text: 'New' } })).toBe(true);
    expect(writeConstraintsHold(unchangedStatus, header, { ...header, status: 'completed' })).toBe(false);
  });

  test('a malformed expression refuses the write with a 400 naming it', () => {
    let caught: unknown;
    try {
      writeConstraintsHold(entry('%after.status = ('), undefined, header);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(OperationOutcomeError);
    expect((caught as OperationOutcomeError).outcome.issue?.[0]?.details?.text).toMatch(
      /^Invalid AccessPolicy writeConstraint '%after\.status = \(': /,
    );
  });

  test("the demo patient policy's thread rule: creates pass; updates keep a header about the same patient", () => {
    const rule = entry(THREAD_HEADER_UPDATE);
    expect(writeConstraintsHold(rule, undefined, message)).toBe(true);
    expect(writeConstraintsHold(rule, undefined, header)).toBe(true);
    expect(writeConstraintsHold(rule, header, { ...header, sent: '2026-11-27T10:00:00Z' })).toBe(true);
    expect(writeConstraintsHold(rule, header, { ...header, status: 'completed' })).toBe(true);
    expect(writeConstraintsHold(rule, message, { ...message, status: 'stopped' })).toBe(false);
    expect(writeConstraintsHold(rule, message, { ...message, partOf: undefined })).toBe(false);
    expect(
      writeConstraintsHold(rule, header, { ...header, partOf: [{ reference: 'Communication/x' }] }),
    ).toBe(false);
    expect(writeConstraintsHold(rule, header, { ...header, subject: { reference: 'Patient/aisha' } })).toBe(
      false,
    );
    expect(writeConstraintsHold(rule, header, { ...header, subject: undefined })).toBe(false);
    const aboutGroup = { ...header, subject: { reference: 'Group/g1' } };
    expect(writeConstraintsHold(rule, aboutGroup, aboutGroup)).toBe(false);
  });
});
