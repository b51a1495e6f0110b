// Calls every export the bot sandbox's require('@medplum/core') offers (src/server/bots/medplum-core-exports.ts),
// each with an input whose answer is known, and answers them by name (tests/server/bots/bots-sandbox.test.ts).
'use strict';
const c = require('@medplum/core');
const p = {
  resourceType: 'Patient',
  id: 'p1',
  birthDate: '1990-05-01',
  name: [{ given: ['Jane', 'Q'], family: 'Doe' }],
  identifier: [{ system: 'urn:mrn', value: '42' }],
  extension: [{ url: 'urn:x', valueString: 'v' }],
  address: [{ line: ['1 Main St'], city: 'Springfield', state: 'IL' }],
};
const cc = { text: 'Glucose', coding: [{ system: 'http://loinc.org', code: '2345-7', display: 'Glucose' }] };
const obs = {
  resourceType: 'Observation',
  id: 'o1',
  status: 'final',
  code: cc,
  valueQuantity: { value: 5.4, unit: 'mmol/L' },
};
const qr = {
  resourceType: 'QuestionnaireResponse',
  status: 'completed',
  item: [{ linkId: 'q1', answer: [{ valueString: 'yes' }] }],
};
const caught = (f) => {
  try {
    f();
    return 'no error';
  } catch (e) {
    return [e instanceof Error, e.message];
  }
};
const patched = (f, target) => {
  f(target);
  return target;
};
exports.handler = async () => ({
  createReference: c.createReference(p),
  getReferenceString: c.getReferenceString(p),
  resolveId: c.resolveId({ reference: 'Patient/p1' }),
  parseReference: c.parseReference({ reference: 'Patient/p1' }),
  isReference: c.isReference({ reference: 'Patient/p1' }),
  isResource: c.isResource(p),
  getDisplayString: c.getDisplayString(p),
  formatHumanName: c.formatHumanName(p.name[0]),
  formatGivenName: c.formatGivenName(p.name[0]),
  formatFamilyName: c.formatFamilyName(p.name[0]),
  formatAddress: c.formatAddress(p.address[0]),
  formatCodeableConcept: c.formatCodeableConcept(cc),
  formatCoding: c.formatCoding(cc.coding[0]),
  formatQuantity: c.formatQuantity(obs.valueQuantity),
  formatRange: c.formatRange({ low: { value: 1, unit: 'mg' }, high: { value: 2, unit: 'mg' } }),
  formatObservationValue: c.formatObservationValue(obs),
  formatPeriod: c.formatPeriod({ start: '2026-01-01', end: '2026-01-02' }),
  formatDate: c.formatDate('2026-11-25'),
  formatDateTime: c.formatDateTime('2026-11-25T10:00:00Z'),
  calculateAge: c.calculateAge('1990-05-01', '2026-11-25'),
  calculateAgeString: c.calculateAgeString('1990-05-01', '2026-11-25'),
  getIdentifier: c.getIdentifier(p, 'urn:mrn'),
  setIdentifier: patched((r) => c.setIdentifier(r, 'urn:mrn', '7'), { resourceType: 'Patient' }).identifier,
  getCodeBySystem: c.getCodeBySystem(cc, 'http://loinc.org'),
  setCodeBySystem: patched((x) => c.setCodeBySystem(x, 'urn:s', 'c'), {}).coding,
  getExtension: c.getExtension(p, 'urn:x'),
  getExtensionValue: c.getExtensionValue(p, 'urn:x'),
  findResourceByCode: c.findResourceByCode([obs], cc, 'http://loinc.org').id,
  getQuestionnaireAnswers: c.getQuestionnaireAnswers(qr),
  getAllQuestionnaireAnswers: c.getAllQuestionnaireAnswers(qr),
  getDateProperty: c.getDateProperty('2026-11-25T10:00:00Z').toISOString(),
  deepClone: c.deepClone(obs.valueQuantity),
  deepEquals: c.deepEquals({ a: [1] }, { a: [1] }),
  isEmpty: c.isEmpty({}),
  isPopulated: c.isPopulated([1]),
  isDefined: c.isDefined(null),
  isString: c.isString('x'),
  isObject: c.isObject({}),
  isUUID: c.isUUID('9a3c2f8e-1b2c-4d5e-8f90-123456789abc'),
  isCodeableConcept: c.isCodeableConcept(cc),
  isCoding: c.isCoding(cc.coding[0]),
  isQuantity: c.isQuantity(obs.valueQuantity),
  isDateString: c.isDateString('2026-11-25'),
  isDateTimeString: c.isDateTimeString('2026-11-25T10:00:00Z'),
  capitalize: c.capitalize('bloom'),
  arrayify: c.arrayify('x'),
  preciseRound: c.preciseRound(1.23456, 2),
  stringify: c.stringify({ b: 1, a: undefined, c: '' }),
  generateId: c.isUUID(c.generateId()),
  OperationOutcomeError: caught(() => {
    throw new c.OperationOutcomeError(c.badRequest('nope'));
  }),
  normalizeErrorString: c.normalizeErrorString(new Error('boom')),
  normalizeOperationOutcome: c.normalizeOperationOutcome(new Error('boom')).issue[0].details.text,
  operationOutcomeToString: c.operationOutcomeToString(c.badRequest('bad name', 'Patient.name')),
  isOperationOutcome: c.isOperationOutcome(c.allOk),
  getStatus: c.getStatus(c.notFound),
  isOk: c.isOk(c.allOk),
  isNotFound: c.isNotFound(c.notFound),
  isGone: c.isGone(c.notFound),
  allOk: c.getStatus(c.allOk),
  created: c.getStatus(c.created),
  badRequest: c.getStatus(c.badRequest('x')),
  notFound: c.notFound.id,
  forbidden: c.getStatus(c.forbidden),
  conflict: c.getStatus(c.conflict('dup')),
  evalFhirPath: c.evalFhirPath("Patient.name.given.first() + ' ' + Patient.name.family", p),
  evalFhirPathTyped: c.evalFhirPathTyped('birthDate < @2000-01-01', [{ type: 'Patient', value: p }]),
  formatSearchQuery: c.formatSearchQuery({
    resourceType: 'Patient',
    filters: [{ code: 'name', operator: c.Operator.EQUALS, value: 'Doe' }],
    count: 5,
  }),
  Operator: c.Operator.CONTAINS,
  Hl7Context: new c.Hl7Context().getMsh2(),
  Hl7Field: c.Hl7Field.parse('a^b').getComponent(2),
  Hl7Segment: c.Hl7Segment.parse('PID|1||42^^^MRN').getComponent(3, 4),
  Hl7Message: c.Hl7Message.parse('MSH|^~\\&|A|B|C|D|20260101120000||ADT^A01|1|P|2.5\rPID|1||42')
    .getSegment('PID')
    .getField(3)
    .toString(),
  formatHl7DateTime: c.formatHl7DateTime('2026-11-25T10:00:00.000Z'),
  parseHl7DateTime: c.parseHl7DateTime('20261125100000'),
  ContentType: c.ContentType.FHIR_JSON,
  LOINC: c.LOINC,
  SNOMED: c.SNOMED,
  UCUM: c.UCUM,
  HTTP_HL7_ORG: c.HTTP_HL7_ORG,
  HTTP_TERMINOLOGY_HL7_ORG: c.HTTP_TERMINOLOGY_HL7_ORG,
});
