// Medplum bots run unchanged over real HTTP (SPEC §7 Bot $execute): a bot written
// against @medplum/core (support/medplum-bots/adt-admit.ts) is compiled by TypeScript to the
// CommonJS Medplum deploys (`const core_1 = require("@medplum/core")`) and to an ES module, deployed
// by the admin, and run with an HL7 v2 ADT message: it answers an ACK as HL7 text and creates the
// Patient and Encounter through its FHIR client with createReference. Requiring a module the sandbox
// does not have, or an export it leaves out, answers a 400 OperationOutcome that says so.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AuditEvent, Bot, Bundle, Encounter, OperationOutcome, Patient } from '@medplum/fhirtypes';
import ts from 'typescript';
import { call } from '../operations/support/clinic';
import { deployBot, startClinic } from '../operations/support/clinic';
import type { Clinic, HttpResponse } from '../operations/support/clinic';
import { databases } from '../support/test-databases';

const HL7 = 'x-application/hl7-v2+er7';
// The bot's identifier systems (not imported: loading @medplum/core in Node 20 needs a WebSocket).
const MRN_SYSTEM = 'urn:bloom:test:mrn';
const VISIT_SYSTEM = 'urn:bloom:test:visit';
const BOT_SOURCE = fs.readFileSync(path.join(__dirname, '../support/medplum-bots/adt-admit.ts'), 'utf8');

function compile(module: ts.ModuleKind): string {
  return ts.transpileModule(BOT_SOURCE, {
    compilerOptions: { module, target: ts.ScriptTarget.ES2020, esModuleInterop: true },
  }).outputText;
}

function adt(trigger: string, control: string, mrn: string, name: string): string {
  return [
    `MSH|^~\\&|HIS|GENERAL|BLOOM|CLINIC|20261125093000||ADT^${trigger}|${control}|P|2.5.1`,
    `PID|1||${mrn}^^^GENERAL^MR||${name}||19920314|F`,
    'PV1|1|I|WARD^12^1',
  ].join('\r');
}

describe.each(databases())('issue #10 Medplum bots requiring @medplum/core on %s', (_engine, kind) => {
  let clinic: Clinic;
  let binaryDir: string;

  function execute<T = Record<string, unknown>>(
    bot: Bot,
    body: string,
    contentType = HL7,
  ): Promise<HttpResponse<T>> {
    return call<T>(clinic.server, 'POST', `fhir/R4/Bot/${bot.id}/$execute`, clinic.chen, {
      body,
      contentType,
    });
  }

  beforeAll(async () => {
    binaryDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bloom-bots-medplum-'));
    clinic = await startClinic(kind, { BINARY_DIR: binaryDir });
  }, 60_000);

  afterAll(async () => {
    await clinic?.server.close();
    fs.rmSync(binaryDir, { recursive: true, force: true });
  });

  it.each([
    ['CommonJS (as Medplum deploys it)', ts.ModuleKind.CommonJS, 'MRN-CJS'],
    ['an ES module', ts.ModuleKind.ES2020, 'MRN-ESM'],
  ])(
    'runs the ADT bot compiled to %s: ACK as HL7 text, Patient and Encounter created',
    async (_form, module, mrn) => {
      const code = compile(module);
      if (module === ts.ModuleKind.CommonJS) {
        expect(code).toContain('const core_1 = require("@medplum/core");');
        expect(code).toContain('exports.handler = handler;');
      } else {
        expect(code).toContain("import { createReference, getReferenceString } from '@medplum/core';");
      }
      const bot = await deployBot(clinic, 'ADT admit', code, 'adt-admit.js');

      const first = await execute(bot, adt('A01', `${mrn}-1`, mrn, 'Okafor^Ada'));
      expect(first.status).toBe(200);
      expect(first.headers.get('content-type')).toMatch(/^x-application\/hl7-v2\+er7/);
      const [msh, msa] = first.text.split('\r');
      // Medplum's buildAck: sender and receiver swapped, ACK^trigger, the original control id in MSA-2.
      expect(msh).toMatch(
        /^MSH\|\^~\\&\|BLOOM\|CLINIC\|HIS\|GENERAL\|\d{14}(\.\d{1,3})?\|\|ACK\^A01\|\d+\|P\|2\.5\.1$/,
      );
      expect(msa).toBe(`MSA|AA|${mrn}-1|OK`);

      const patients = await call<Bundle<Patient>>(
        clinic.server,
        'GET',
        `fhir/R4/Patient?identifier=${encodeURIComponent(`${MRN_SYSTEM}|${mrn}`)}`,
        clinic.admin,
      );
      expect(patients.body.entry).toHaveLength(1);
      const patient = patients.body.entry?.[0]?.resource as Patient;
      expect(patient.name).toEqual([{ family: 'Okafor', given: ['Ada'] }]);
      expect(patient.meta?.author?.reference).toBe(`Bot/${bot.id}`);

      // A second admission finds her by MRN instead of creating her again.
      const second = await execute(bot, adt('A01', `${mrn}-2`, mrn, 'Okafor^Ada'));
      expect(second.text.split('\r')[1]).toBe(`MSA|AA|${mrn}-2|OK`);
      const encounters = await call<Bundle<Encounter>>(
        clinic.server,
        'GET',
        `fhir/R4/Encounter?subject=Patient/${patient.id}&_sort=_lastUpdated`,
        clinic.admin,
      );
      expect(encounters.body.entry?.map((entry) => entry.resource?.identifier?.[0])).toEqual([
        { system: VISIT_SYSTEM, value: `${mrn}-1` },
        { system: VISIT_SYSTEM, value: `${mrn}-2` },
      ]);
      // createReference: the reference and the display from getDisplayString.
      expect(encounters.body.entry?.[0]?.resource?.subject).toEqual({
        reference: `Patient/${patient.id}`,
        display: 'Ada Okafor',
      });
      const audits = await call<Bundle<AuditEvent>>(
        clinic.server,
        'GET',
        `fhir/R4/AuditEvent?entity=Bot/${bot.id}&_sort=-_lastUpdated`,
        clinic.admin,
      );
      expect(audits.body.entry?.[0]?.resource?.outcomeDesc).toMatch(
        new RegExp(`^admitted Patient/${patient.id} in Encounter/[\\w-]+$`),
      );

      // Not an admission: refused with AR and nothing written.
      const discharge = await execute(bot, adt('A03', `${mrn}-3`, mrn, 'Okafor^Ada'));
      expect(discharge.status).toBe(200);
      expect(discharge.text.split('\r')[1]).toBe(`MSA|AR|${mrn}-3|Application Reject`);
    },
  );

  it('answers 400 with an OperationOutcome naming a module or an export the sandbox does not have', async () => {
    const cases: [string, RegExp][] = [
      [
        '"use strict";\nconst fs_1 = require("fs");\nexports.handler = async () => fs_1.readFileSync("/etc/passwd", "utf8");',
        /^Bot execution failed: Error: Cannot find module 'fs': a bot can require only '@medplum\/core' \(the sandbox has no file system, network or Node\.js modules\)$/,
      ],
      [
        "import { readFileSync } from 'node:fs';\nexport async function handler() { return readFileSync('/etc/passwd', 'utf8'); }",
        /^Bot execution failed: Error: Cannot find module 'node:fs': a bot can require only '@medplum\/core'/,
      ],
      [
        '"use strict";\nconst core_1 = require("@medplum/core");\nexports.handler = async (medplum, event) => (0, core_1.streamToBuffer)(event.input);',
        /^Bot execution failed: TypeError: @medplum\/core has no export 'streamToBuffer' in this bot sandbox; it offers .*\bcreateReference\b/,
      ],
    ];
    for (const [code, message] of cases) {
      const bot = await deployBot(clinic, 'ADT admit', code, 'adt-admit.js');
      const answer = await execute<OperationOutcome>(bot, '{}', 'application/json');
      expect(answer.status).toBe(400);
      expect(answer.body.resourceType).toBe('OperationOutcome');
      expect(answer.body.issue[0]).toMatchObject({ severity: 'error', code: 'processing' });
      expect(answer.body.issue[0].details?.text).toMatch(message);
    }
  });
});
