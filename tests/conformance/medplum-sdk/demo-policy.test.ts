// The demo clinic's patient policy over real HTTP with Medplum's own MedplumClient 5.2.13 (SPEC §6,
// §7): Maria answers a Questionnaire about herself, cannot attribute a message or a measurement
// to Dr. Chen (403), updates her thread header as ThreadChat does; a patient who registers herself
// (auth/newuser + auth/newpatient through MedplumClient) gets the project's default patient policy
// and the same rights over her own records and none over Maria's.
import './support/node-websocket';
import type { MedplumClient } from '@medplum/core';
import type {
  Communication,
  Observation,
  ProjectMembership,
  Questionnaire,
  QuestionnaireResponse,
} from '@medplum/fhirtypes';
import { startClinic } from '../../server/operations/support/clinic';
import type { Clinic } from '../../server/operations/support/clinic';
import { uniqueEmail } from '../../server/auth/support/auth-fixtures';
import { databases } from '../../server/support/test-databases';
import {
  medplumClient,
  outcomeOf,
  rejectionOf,
  signedInClient,
  withBrowserBase64,
} from './support/medplum-client';

describe.each(databases())(
  "the demo patient policy through Medplum's MedplumClient on %s",
  (_engine, kind) => {
    let clinic: Clinic;
    let maria: MedplumClient;
    let chen: MedplumClient;
    let mariaRef: string;
    let chenRef: string;

    beforeAll(async () => {
      clinic = await startClinic(kind);
      [maria, chen] = await Promise.all(
        [clinic.maria, clinic.chen].map((tokens) => signedInClient(clinic.server.baseUrl, tokens)),
      );
      mariaRef = clinic.maria.profile?.reference as string;
      chenRef = clinic.chen.profile?.reference as string;
    }, 120_000);

    afterAll(async () => {
      await clinic?.server.close();
    });

    const status = async (promise: Promise<unknown>) => outcomeOf(await rejectionOf(promise))[0]?.code;

    test('Maria answers a clinic Questionnaire about herself and reads her answer back', async () => {
      // The mood screening: every question offers its answers.
      const questionnaire = (await maria.searchResources('Questionnaire')).find((form) =>
        form.item?.every((item) => item.answerOption),
      ) as Questionnaire;
      expect(questionnaire?.id).toEqual(expect.any(String));
      const answer = await maria.createResource<QuestionnaireResponse>({
        resourceType: 'QuestionnaireResponse',
        status: 'completed',
        questionnaire: questionnaire.url ?? `Questionnaire/${questionnaire.id}`,
        subject: { reference: mariaRef },
        author: { reference: mariaRef },
        authored: new Date().toISOString(),
        // The first offered answer to every question: the server checks a completed form is whole.
        item: (questionnaire.item ?? []).map((item) => ({
          linkId: item.linkId,
          answer: item.answerOption?.[0]
            ? [{ ...item.answerOption[0], initialSelected: undefined }]
            : undefined,
        })),
      });
      expect(answer.id).toEqual(expect.any(String));
      const read = await maria.readResource('QuestionnaireResponse', answer.id as string);
      expect(read.subject?.reference).toBe(mariaRef);
      // Answers about another patient are not hers to give.
      const aishaRef = clinic.aisha.profile?.reference as string;
      expect(
        await status(
          maria.createResource<QuestionnaireResponse>({
            ...answer,
            id: undefined,
            subject: { reference: aishaRef },
          }),
        ),
      ).toBe('forbidden');
    });

    test('a message with sender Dr. Chen and an Observation with performer Dr. Chen are refused (403)', async () => {
      const thread = (await maria.searchOne('Communication', {
        'part-of:missing': true,
        subject: mariaRef,
      })) as Communication;
      const message: Communication = {
        resourceType: 'Communication',
        status: 'completed',
        partOf: [{ reference: `Communication/${thread.id}` }],
        subject: { reference: mariaRef },
        sender: { reference: chenRef },
        recipient: [{ reference: mariaRef }],
        sent: new Date().toISOString(),
        payload: [{ contentString: 'Take twice the dose.' }],
      };
      expect(await status(maria.createResource(message))).toBe('forbidden');
      const observation: Observation = {
        resourceType: 'Observation',
        status: 'final',
        code: { text: 'Blood pressure' },
        subject: { reference: mariaRef },
        performer: [{ reference: chenRef }],
        valueString: '120/80',
      };
      expect(await status(maria.createResource(observation))).toBe('forbidden');
      // As herself, both are written.
      const own = await maria.createResource({
        ...message,
        sender: { reference: mariaRef },
        recipient: [{ reference: chenRef }],
      });
      expect(own.sender?.reference).toBe(mariaRef);
      const measured = await maria.createResource({
        ...observation,
        status: 'preliminary',
        performer: undefined,
      });
      expect(measured.subject?.reference).toBe(mariaRef);
      // Dr. Chen sees neither forged resource.
      const forged = await chen.searchResources('Communication', {
        'part-of': `Communication/${thread.id}`,
        sender: chenRef,
      });
      expect(forged.filter((c) => c.payload?.[0]?.contentString === 'Take twice the dose.')).toEqual([]);
    });

    test("she updates her thread header as ThreadChat does (PATCH of sent), not Aisha's", async () => {
      const thread = (await maria.searchOne('Communication', {
        'part-of:missing': true,
        subject: mariaRef,
      })) as Communication;
      const sent = new Date().toISOString();
      const patched = await maria.patchResource('Communication', thread.id as string, [
        { op: 'add', path: '/sent', value: sent },
      ]);
      expect(patched.sent).toBe(sent);
      const aishaThread = (await chen.searchOne('Communication', {
        'part-of:missing': true,
        subject: clinic.aisha.profile?.reference as string,
      })) as Communication;
      expect(
        await status(
          maria.patchResource('Communication', aishaThread.id as string, [
            { op: 'add', path: '/sent', value: sent },
          ]),
        ),
      ).toBe('not-found');
    });

    test('a self-registered patient gets the default patient policy and its rights', async () => {
      const client = await medplumClient(clinic.server.baseUrl);
      const registered = await withBrowserBase64(() =>
        client.startNewUser({
          firstName: 'Rosa',
          lastName: 'Lind',
          email: uniqueEmail('rosa'),
          password: 'amber-kettle-4417',
          projectId: clinic.projectId,
          recaptchaToken: '',
        }),
      );
      const patientLogin = await client.startNewPatient({
        login: registered.login,
        projectId: clinic.projectId,
      });
      await client.processCode(patientLogin.code as string);
      const profile = client.getProfile();
      expect(profile?.resourceType).toBe('Patient');
      const [own] = await clinic.server.db
        .query<{ content: ProjectMembership }>(
          "SELECT content FROM resource WHERE resource_type = 'ProjectMembership' AND content->'profile'->>'reference' = $1",
          [`Patient/${profile?.id}`],
        )
        .then((r) => r.rows);
      const project = await clinic.server.db
        .query<{ policy: string }>(
          "SELECT content->'defaultPatientAccessPolicy'->>'reference' AS policy FROM resource WHERE id = $1",
          [clinic.projectId],
        )
        .then((r) => r.rows[0].policy);
      expect(own.content.accessPolicy?.reference).toBe(project);
      // Her rights: her measurement as herself; none attributed to Dr. Chen; nothing of Maria's.
      const mine = await client.createResource<Observation>({
        resourceType: 'Observation',
        status: 'preliminary',
        code: { text: 'Weight' },
        subject: { reference: `Patient/${profile?.id}` },
        valueQuantity: { value: 61, unit: 'kg' },
      });
      expect(mine.id).toEqual(expect.any(String));
      expect(
        await status(
          client.createResource<Observation>({ ...mine, id: undefined, performer: [{ reference: chenRef }] }),
        ),
      ).toBe('forbidden');
      expect(await client.searchResources('Observation', { subject: mariaRef })).toHaveLength(0);
    });
  },
);
