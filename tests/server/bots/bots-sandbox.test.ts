// The bot sandbox alone: Medplum's handler(medplum, event)
// format in CommonJS and ES module form, the FHIR client bridged out asynchronously, console
// captured, and hostile code (endless loop, allocation bomb, process/require/fetch) stopped with a
// clear reason while the next run works normally.
import fs from 'node:fs';
import path from 'node:path';
import { MEDPLUM_CORE_EXPORTS } from '../../../src/server/bots/medplum-core-exports';
import { BotHostError } from '../../../src/server/bots/bot-host';
import { runInSandbox } from '../../../src/server/bots/sandbox';
import type { SandboxRun } from '../../../src/server/bots/sandbox';

const noHost: SandboxRun['host'] = async (method) => {
  throw new Error(`unexpected call ${method}`);
};

function run(code: string, overrides: Partial<SandboxRun> = {}) {
  return runInSandbox({
    code,
    event: { input: { n: 2 }, contentType: 'application/json', secrets: {} },
    host: noHost,
    timeoutMs: 2000,
    memoryBytes: 16 * 1024 * 1024,
    ...overrides,
  });
}

describe('bot sandbox (issue #10, SPEC §7 Bot $execute)', () => {
  it('runs a CommonJS handler with its event and returns its output', async () => {
    const result = await run('exports.handler = async (medplum, event) => ({ doubled: event.input.n * 2 });');
    expect(result).toEqual({ ok: true, output: { doubled: 4 }, logs: [] });
  });

  it('runs an ES module handler and captures console.log', async () => {
    const result = await run(
      'export async function handler(medplum, event) { console.log("got", event.input); return "hi " + event.contentType; }',
    );
    expect(result).toEqual({ ok: true, output: 'hi application/json', logs: ['got {"n":2}'] });
  });

  it('bridges FHIR client calls to the host asynchronously, errors included', async () => {
    const calls: [string, unknown[]][] = [];
    const host: SandboxRun['host'] = async (method, args) => {
      calls.push([method, args]);
      await new Promise((resolve) => setTimeout(resolve, 5));
      if (method === 'readResource') {
        throw new Error('Not found');
      }
      return { ...(args[0] as object), id: 'new-1' };
    };
    const result = await run(
      `exports.handler = async (medplum) => {
        const created = await medplum.createResource({ resourceType: 'Patient' });
        let failure;
        try { await medplum.readResource('Patient', 'missing'); } catch (e) { failure = e.message; }
        return { id: created.id, failure };
      };`,
      { host },
    );
    expect(result).toEqual({ ok: true, output: { id: 'new-1', failure: 'Not found' }, logs: [] });
    expect(calls).toEqual([
      ['createResource', [{ resourceType: 'Patient' }]],
      ['readResource', ['Patient', 'missing']],
    ]);
  });

  it("passes updateResource's If-Match header on and gives a failed call's OperationOutcome as err.outcome", async () => {
    const calls: unknown[][] = [];
    const host: SandboxRun['host'] = async (method, args) => {
      calls.push(args);
      throw new BotHostError('Version conflict', {
        resourceType: 'OperationOutcome',
        id: 'precondition-failed',
        issue: [{ severity: 'error', code: 'processing' }],
      });
    };
    const result = await run(
      `exports.handler = async (medplum) => {
        const seen = [];
        for (const headers of [{ 'If-Match': 'W/"2"' }, [['if-match', 'W/"3"']], undefined]) {
          try { await medplum.updateResource({ resourceType: 'Patient', id: 'p' }, headers && { headers }); }
          catch (e) { seen.push([e.message, e.outcome && e.outcome.id]); }
        }
        return seen;
      };`,
      { host },
    );
    expect(result).toMatchObject({
      ok: true,
      output: [
        ['Version conflict', 'precondition-failed'],
        ['Version conflict', 'precondition-failed'],
        ['Version conflict', 'precondition-failed'],
      ],
    });
    expect(calls.map((args) => args[1])).toEqual([{ ifMatch: 'W/"2"' }, { ifMatch: 'W/"3"' }, null]);
  });

  it('has no process, fetch or setTimeout inside, and require answers only @medplum/core', async () => {
    const result = await run(
      'exports.handler = async () => [typeof process, typeof require, typeof fetch, typeof setTimeout, typeof globalThis.std, typeof globalThis.os];',
    );
    expect(result).toEqual({
      ok: true,
      output: ['undefined', 'function', 'undefined', 'undefined', 'undefined', 'undefined'],
      logs: [],
    });
    const reach = await run(
      'exports.handler = async () => require("fs").readFileSync("/etc/passwd", "utf8");',
    );
    expect(reach).toEqual({
      ok: false,
      reason: 'error',
      error:
        "Error: Cannot find module 'fs': a bot can require only '@medplum/core' (the sandbox has no file system, network or Node.js modules)",
      logs: [],
    });
    const env = await run('exports.handler = async () => process.env;');
    expect(env).toMatchObject({ ok: false, reason: 'error', error: expect.stringMatching(/process/) });
    const net = await run('exports.handler = async () => fetch("http://localhost/");');
    expect(net).toMatchObject({ ok: false, reason: 'error', error: expect.stringMatching(/fetch/) });
  });

  it('stops an endless loop at the time limit, and the next run works', async () => {
    const loop = await run('exports.handler = async () => { for (;;) {} };', { timeoutMs: 300 });
    expect(loop).toMatchObject({ ok: false, reason: 'timeout' });
    const next = await run('exports.handler = async () => "fine";');
    expect(next).toEqual({ ok: true, output: 'fine', logs: [] });
  });

  it('stops a bot that awaits for ever at the time limit', async () => {
    const waiting = await run('exports.handler = () => new Promise(() => {});', { timeoutMs: 200 });
    expect(waiting).toMatchObject({ ok: false, reason: 'timeout' });
  });

  it('stops an allocation bomb at the memory limit, and the next run works', async () => {
    const bomb = await run(
      'exports.handler = async () => { const a = []; for (let i = 0; ; i++) a.push({ i, tag: "n" + i }); };',
      {
        memoryBytes: 8 * 1024 * 1024,
        timeoutMs: 5000,
      },
    );
    expect(bomb).toMatchObject({ ok: false, reason: 'memory' });
    const doubling = await run('exports.handler = async () => { let s = "x"; for (;;) s = s + s; };');
    expect(doubling).toMatchObject({ ok: false, reason: 'memory' });
    const recursion = await run(
      'exports.handler = async () => { const f = (n) => f(n + 1) + 1; return f(0); };',
    );
    expect(recursion).toMatchObject({ ok: false, error: expect.stringMatching(/stack overflow/i) });
    const next = await run('exports.handler = async () => 1 + 1;');
    expect(next).toEqual({ ok: true, output: 2, logs: [] });
  });

  it('ends hostile runs without QuickJS failing to free a runtime (no leaked handles), then runs normally', async () => {
    // QuickJS reports handles left alive at JS_FreeRuntime as "Aborted(Assertion failed:
    // list_empty(&rt->gc_obj_list))" through console.error.
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const never: SandboxRun['host'] = () => new Promise(() => undefined);
      const cases: [string, Partial<SandboxRun>, string][] = [
        ['exports.handler = () => new Promise(() => {});', { timeoutMs: 200 }, 'timeout'],
        [
          'exports.handler = (m) => m.readResource("Patient", "p1");',
          { timeoutMs: 200, host: never },
          'timeout',
        ],
        [
          'exports.handler = async () => { await 0; const a = []; for (;;) a.push({ t: "n" }); };',
          { memoryBytes: 8 * 1024 * 1024, timeoutMs: 10_000 },
          'memory',
        ],
        ['exports.handler = async () => { const f = (n) => f(n + 1) + 1; return f(0); };', {}, 'memory'],
        ['exports.handler = async () => { for (;;) {} };', { timeoutMs: 200 }, 'timeout'],
      ];
      for (const [code, overrides, reason] of cases) {
        expect(await run(code, overrides)).toMatchObject({ ok: false, reason });
      }
      expect(await run('exports.handler = async () => "fine";')).toEqual({
        ok: true,
        output: 'fine',
        logs: [],
      });
      expect(errors.mock.calls.map((call) => String(call[0]))).toEqual([]);
    } finally {
      errors.mockRestore();
    }
  });

  it("gives HL7 v2 input as @medplum/core's Hl7Message and sends an Hl7Message answer back as HL7 text", async () => {
    const message =
      'MSH|^~\\&|LAB|HOSP|BLOOM|CLINIC|20260101120000||ORU^R01|CTRL42|P|2.5\rPID|1||12345^^^MRN||Doe^Jane~Roe^Jan\rOBX|1|NM|GLU||5.4|mmol/L\r';
    const code = `exports.handler = async (medplum, event) => {
      const input = event.input;
      const msh = input.getSegment('MSH');
      const pid = input.getSegment('PID');
      console.log([input instanceof Hl7Message, msh.getField(1).toString(), msh.getField(2).toString(),
        msh.getField(9).getComponent(1), msh.getComponent(9, 2), msh.getField(10).toString(),
        pid.getComponent(5, 2), pid.getField(5).getComponent(1, undefined, 1), pid.getField(3).getComponent(4),
        input.getAllSegments('OBX').length, input.header.name, input.getSegment(2).getField(5).toString()].join(' '));
      const ack = input.buildAck({ ackCode: 'AE' });
      console.log(ack.getAckType(), ack.getSegment('MSH').getField(9).toString());
      return ack;
    };`;
    const result = await run(code, {
      event: { input: message, contentType: 'x-application/hl7-v2+er7', secrets: {} },
    });
    expect(result).toMatchObject({ ok: true, contentType: 'x-application/hl7-v2+er7' });
    // Medplum's own buildAck: MSH-7 with milliseconds (written as Medplum does: 9 ms is ".9"),
    // MSH-9 ACK^trigger, MSA-3 the code's text.
    expect(result.logs).toEqual(['true | ^~\\& ORU R01 CTRL42 Jane Roe MRN 1 MSH 5.4', 'AE ACK^R01']);
    const [msh, msa] = String(result.ok && result.output).split('\r');
    expect(msh).toMatch(
      /^MSH\|\^~\\&\|BLOOM\|CLINIC\|LAB\|HOSP\|\d{14}(\.\d{1,3})?\|\|ACK\^R01\|\d+\|P\|2\.5$/,
    );
    expect(msa).toBe('MSA|AE|CTRL42|Application Error');

    // Not HL7 at all: the bot's error says so; other content types keep their text.
    expect(
      await run('exports.handler = async (m, e) => e.input;', {
        event: { input: 'hello', contentType: 'x-application/hl7-v2+er7', secrets: {} },
      }),
    ).toMatchObject({ ok: false, error: expect.stringMatching(/Invalid HL7 message/) });
    expect(
      await run('exports.handler = async (m, e) => e.input;', {
        event: { input: message, contentType: 'text/plain', secrets: {} },
      }),
    ).toEqual({ ok: true, output: message, logs: [] });
  });

  it("answers require('@medplum/core') with Medplum's own functions, every offered export working inside QuickJS", async () => {
    const code = fs.readFileSync(path.join(__dirname, '../support/medplum-bots/core-exports.cjs'), 'utf8');
    const result = await run(code);
    if (!result.ok) throw new Error(result.error);
    const output = result.output as Record<string, unknown>;
    // The fixture calls each export once: one added to the list without a call here fails this.
    expect(Object.keys(output).sort()).toEqual([...MEDPLUM_CORE_EXPORTS].sort());
    expect(output).toEqual({
      createReference: { reference: 'Patient/p1', display: 'Jane Q Doe' },
      getReferenceString: 'Patient/p1',
      resolveId: 'p1',
      parseReference: ['Patient', 'p1'],
      isReference: true,
      isResource: true,
      getDisplayString: 'Jane Q Doe',
      formatHumanName: 'Jane Q Doe',
      formatGivenName: 'Jane Q',
      formatFamilyName: 'Doe',
      formatAddress: '1 Main St, Springfield, IL',
      formatCodeableConcept: 'Glucose',
      formatCoding: 'Glucose',
      formatQuantity: '5.4 mmol/L',
      formatRange: '1 - 2 mg',
      formatObservationValue: '5.4 mmol/L',
      // QuickJS has no Intl: dates are shown in the server's local time zone, US style.
      formatPeriod: expect.stringMatching(
        /^\d\d\/\d\d\/202[56], \d\d:00:00 [AP]M - \d\d\/\d\d\/2026, \d\d:00:00 [AP]M$/,
      ),
      formatDate: expect.stringMatching(/^11\/2[45]\/2026$/),
      formatDateTime: expect.stringMatching(/^11\/2[456]\/2026, \d\d:00:00 [AP]M$/),
      calculateAge: { years: 36, months: 438, days: 13357 },
      calculateAgeString: '036Y',
      getIdentifier: '42',
      setIdentifier: [{ system: 'urn:mrn', value: '7' }],
      getCodeBySystem: '2345-7',
      setCodeBySystem: [{ system: 'urn:s', code: 'c' }],
      getExtension: { url: 'urn:x', valueString: 'v' },
      getExtensionValue: 'v',
      findResourceByCode: 'o1',
      getQuestionnaireAnswers: { q1: { valueString: 'yes' } },
      getAllQuestionnaireAnswers: { q1: [{ valueString: 'yes' }] },
      getDateProperty: '2026-11-25T10:00:00.000Z',
      deepClone: { value: 5.4, unit: 'mmol/L' },
      deepEquals: true,
      isEmpty: true,
      isPopulated: true,
      isDefined: false,
      isString: true,
      isObject: true,
      isUUID: true,
      isCodeableConcept: true,
      isCoding: true,
      isQuantity: true,
      isDateString: true,
      isDateTimeString: true,
      capitalize: 'Bloom',
      arrayify: ['x'],
      preciseRound: 1.23,
      stringify: '{"b":1}',
      generateId: true,
      OperationOutcomeError: [true, 'nope'],
      normalizeErrorString: 'boom',
      normalizeOperationOutcome: 'boom',
      operationOutcomeToString: 'bad name (Patient.name)',
      isOperationOutcome: true,
      getStatus: 404,
      isOk: true,
      isNotFound: true,
      isGone: false,
      allOk: 200,
      created: 201,
      badRequest: 400,
      notFound: 'not-found',
      forbidden: 403,
      conflict: 409,
      evalFhirPath: ['Jane Doe'],
      evalFhirPathTyped: [{ type: 'boolean', value: true }],
      formatSearchQuery: '?_count=5&name=Doe',
      Operator: 'contains',
      Hl7Context: '^~\\&',
      Hl7Field: 'b',
      Hl7Segment: 'MRN',
      Hl7Message: '42',
      formatHl7DateTime: '20261125100000',
      parseHl7DateTime: '2026-11-25T10:00:00.000Z',
      ContentType: 'application/fhir+json',
      LOINC: 'http://loinc.org',
      SNOMED: 'http://snomed.info/sct',
      UCUM: 'http://unitsofmeasure.org',
      HTTP_HL7_ORG: 'http://hl7.org',
      HTTP_TERMINOLOGY_HL7_ORG: 'http://terminology.hl7.org',
    });
  });

  it('links ES module imports of @medplum/core and names what a module or export does not offer', async () => {
    const esm = await run(
      `import { createReference, Hl7Message } from '@medplum/core';
      import core from '@medplum/core';
      import * as namespace from '@medplum/core';
      export async function handler(medplum, event) {
        const patient = { resourceType: 'Patient', id: 'a', name: [{ family: 'Doe' }] };
        return [createReference(patient), core.getReferenceString(patient), namespace.LOINC, Hl7Message === core.Hl7Message];
      }`,
    );
    expect(esm).toEqual({
      ok: true,
      output: [{ reference: 'Patient/a', display: 'Doe' }, 'Patient/a', 'http://loinc.org', true],
      logs: [],
    });
    const missingModule =
      "Cannot find module 'node:fs': a bot can require only '@medplum/core' (the sandbox has no file system, network or Node.js modules)";
    expect(await run("import fs from 'node:fs';\nexport async function handler() { return fs; }")).toEqual({
      ok: false,
      reason: 'error',
      error: `Error: ${missingModule}`,
      logs: [],
    });
    // TypeScript's CommonJS output calls an import as (0, core_1.name)(...).
    const cjs = await run(
      '"use strict"; const core_1 = require("@medplum/core"); exports.handler = async () => (0, core_1.sleep)(5);',
    );
    expect(cjs).toMatchObject({
      ok: false,
      reason: 'error',
      error: expect.stringMatching(
        /^TypeError: @medplum\/core has no export 'sleep' in this bot sandbox; it offers .*\bHl7Message\b.*\bcreateReference\b/,
      ),
    });
    expect(
      await run("import { sleep } from '@medplum/core';\nexport async function handler() { return 1; }"),
    ).toMatchObject({
      ok: false,
      error: "SyntaxError: Could not find export 'sleep' in module '@medplum/core'",
    });
  });

  it("loads @medplum/core only when asked, inside the bot's own limits", async () => {
    // Below what the bundle needs, a bot that never requires it still runs; one that does is
    // stopped by its memory limit like any other allocation.
    const tiny = 100 * 1024;
    expect(await run('exports.handler = async () => 1;', { memoryBytes: tiny })).toEqual({
      ok: true,
      output: 1,
      logs: [],
    });
    expect(
      await run('exports.handler = async () => typeof require("@medplum/core").createReference;', {
        memoryBytes: tiny,
      }),
    ).toMatchObject({ ok: false, reason: 'memory' });
    expect(
      await run('exports.handler = async () => typeof require("@medplum/core").createReference;'),
    ).toEqual({
      ok: true,
      output: 'function',
      logs: [],
    });
  });

  it('refuses code without a handler and code that does not parse', async () => {
    expect(await run('exports.other = 1;')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/handler/),
    });
    expect(await run('exports.handler = async () => {')).toMatchObject({
      ok: false,
      reason: 'error',
      error: expect.stringMatching(/SyntaxError/),
    });
  });
});
