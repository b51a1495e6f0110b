import type { OperationOutcome } from '@medplum/fhirtypes';
import {
  accepted,
  allOk,
  badRequest,
  conflict,
  created,
  forbidden,
  getStatus,
  gone,
  isOk,
  normalizeError,
  notFound,
  notModified,
  OperationOutcomeError,
  operationOutcomeToString,
  payloadTooLarge,
  preconditionFailed,
  serverError,
  tooManyRequests,
  unauthorized,
  unsupportedMediaType,
  validationOutcome,
} from '../../src/fhir/outcomes';

describe('SPEC §3 outcome ids and SPEC §8 issue codes', () => {
  test('allOk is id ok with an information issue "All OK"', () => {
    expect(allOk).toEqual({
      resourceType: 'OperationOutcome',
      id: 'ok',
      issue: [{ severity: 'information', code: 'informational', details: { text: 'All OK' } }],
    });
  });

  test('well-known ids', () => {
    expect(created.id).toBe('created');
    expect(notModified.id).toBe('not-modified');
    expect(notFound.id).toBe('not-found');
    expect(accepted.id).toBe('accepted');
    expect(gone.id).toBe('gone');
  });

  test('notFound has code not-found and text "Not found"', () => {
    expect(notFound.issue[0]).toMatchObject({
      severity: 'error',
      code: 'not-found',
      details: { text: 'Not found' },
    });
  });

  test('badRequest has code invalid and an optional expression', () => {
    expect(badRequest('Bad thing').issue[0]).toEqual({
      severity: 'error',
      code: 'invalid',
      details: { text: 'Bad thing' },
    });
    expect(badRequest('Bad date', 'Patient.birthDate').issue[0].expression).toEqual(['Patient.birthDate']);
  });

  test('serverError has code exception, text "Internal server error" and the cause in diagnostics', () => {
    const issue = serverError(new Error('db exploded')).issue[0];
    expect(issue.code).toBe('exception');
    expect(issue.details?.text).toBe('Internal server error');
    expect(issue.diagnostics).toBe('db exploded');
  });
});

describe('getStatus', () => {
  test.each<[string, OperationOutcome, number]>([
    ['ok', allOk, 200],
    ['created', created, 201],
    ['accepted', accepted, 202],
    ['not-modified', notModified, 304],
    ['invalid', badRequest('x'), 400],
    ['unauthorized', unauthorized, 401],
    ['forbidden', forbidden, 403],
    ['not-found', notFound, 404],
    ['conflict', conflict('x'), 409],
    ['gone', gone, 410],
    ['precondition-failed', preconditionFailed('x'), 412],
    ['too-large', payloadTooLarge('x'), 413],
    ['unsupported-media-type', unsupportedMediaType('x'), 415],
    ['too-many-requests', tooManyRequests('x'), 429],
    ['exception', serverError(new Error('x')), 500],
  ])('%s → %d', (_name, outcome, status) => {
    expect(getStatus(outcome)).toBe(status);
  });

  test.each(['invalid', 'structure', 'required', 'value', 'processing'] as const)(
    'validation issue code %s → 400',
    (code) => {
      expect(getStatus(validationOutcome([{ severity: 'error', code, details: { text: 'x' } }]))).toBe(400);
    },
  );

  test('an outcome without error issues is 200; an unknown id falls back to the issue code', () => {
    expect(
      getStatus({ resourceType: 'OperationOutcome', issue: [{ severity: 'warning', code: 'value' }] }),
    ).toBe(200);
    expect(
      getStatus({
        resourceType: 'OperationOutcome',
        id: 'whatever',
        issue: [{ severity: 'error', code: 'not-found' }],
      }),
    ).toBe(404);
  });

  test('isOk', () => {
    expect(isOk(allOk)).toBe(true);
    expect(isOk(created)).toBe(true);
    expect(isOk(notFound)).toBe(false);
    expect(isOk(badRequest('x'))).toBe(false);
  });
});

describe('SPEC §8 error message: issues joined with "; "', () => {
  test('operationOutcomeToString joins issue texts and names expressions', () => {
    const outcome = validationOutcome([
      {
        severity: 'error',
        code: 'invalid',
        details: { text: 'Invalid date format' },
        expression: ['Patient.birthDate'],
      },
      { severity: 'error', code: 'structure', details: { text: 'Missing required property' } },
    ]);
    expect(operationOutcomeToString(outcome)).toBe(
      'Invalid date format (Patient.birthDate); Missing required property',
    );
  });

  test('OperationOutcomeError carries the outcome and the joined message', () => {
    const outcome = validationOutcome([
      { severity: 'error', code: 'invalid', details: { text: 'One' } },
      { severity: 'error', code: 'invalid', details: { text: 'Two' } },
    ]);
    const err = new OperationOutcomeError(outcome);
    expect(err).toBeInstanceOf(Error);
    expect(err.message).toBe('One; Two');
    expect(err.outcome).toBe(outcome);
    expect(getStatus(err.outcome)).toBe(400);
  });

  test('an outcome without issues still has a message', () => {
    expect(operationOutcomeToString({ resourceType: 'OperationOutcome', issue: [] })).toBe('Unknown error');
  });
});

describe('normalizeError', () => {
  test('OperationOutcomeError → its outcome', () => {
    expect(normalizeError(new OperationOutcomeError(notFound))).toBe(notFound);
  });

  test('a bare OperationOutcome passes through', () => {
    expect(normalizeError(gone)).toBe(gone);
  });

  test('an Error or anything else becomes a 500 with diagnostics', () => {
    const fromError = normalizeError(new TypeError('boom'));
    expect(getStatus(fromError)).toBe(500);
    expect(fromError.issue[0].diagnostics).toBe('boom');
    const fromString = normalizeError('plain');
    expect(getStatus(fromString)).toBe(500);
    expect(fromString.issue[0].diagnostics).toBe('plain');
  });
});
