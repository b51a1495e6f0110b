// Medplum's own SDK as the referee (SPEC §7): MedplumClient from @medplum/core 5.2.13,
// unchanged, against Bloom's real server over HTTP, signed in as the demo clinic's users: binaries
// and attachments (createBinary, createAttachment, createDocumentReference, createMedia, download),
// createComment, keyValue, sendEmail and invite (as the clinic's admin), executeBot by id and by
// identifier, bulkExport, pushToAgent (an in-process agent and an MLLP echo destination) and
// subscribeToCriteria over the WebSocket. Each test asserts what Medplum's server answers as the SDK
// sees it. PGlite, and PostgreSQL with TEST_DATABASE_URL.
import './support/node-websocket';
import crypto from 'node:crypto';
import fs from 'node:fs';
import type { MedplumClient, SubscriptionEmitter, SubscriptionEventMap } from '@medplum/core';
import type { Bot, Bundle, Communication, Observation, ProjectMembership } from '@medplum/fhirtypes';
import type { BloomAgent } from '../../../src/agent/agent';
import { outbox, startClinic, tempDataDir, deployBot } from '../../server/operations/support/clinic';
import type { Clinic } from '../../server/operations/support/clinic';
import {
  agentConfig,
  createAgentSetup,
  hl7Message,
  startAgent,
  startLoopbackDestinations,
} from '../../server/support/agent-fixtures';
import type { AgentSetup, LoopbackDestinations } from '../../server/support/agent-fixtures';
import { databases } from '../../server/support/test-databases';
import { outcomeOf, rejectionOf, signedInClient } from './support/medplum-client';

const BOT_SYSTEM = 'urn:bloom:test:bot';

describe.each(databases())("Medplum's MedplumClient operations against Bloom on %s", (_engine, kind) => {
  let clinic: Clinic;
  let dataDir: string;
  let chen: MedplumClient;
  let admin: MedplumClient;
  let maria: MedplumClient;
  let mariaId: string;

  beforeAll(async () => {
    dataDir = tempDataDir();
    clinic = await startClinic(kind, { DATA_DIR: dataDir, BINARY_DIR: `${dataDir}/binary` });
    [chen, admin, maria] = await Promise.all(
      [clinic.chen, clinic.admin, clinic.maria].map((tokens) =>
        signedInClient(clinic.server.baseUrl, tokens),
      ),
    );
    mariaId = (clinic.maria.profile?.reference ?? '').split('/')[1];
  }, 120_000);

  afterAll(async () => {
    // The subscription socket reconnects by itself until it is closed.
    chen?.getSubscriptionManager().closeWebSocket();
    await clinic?.server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  describe('binaries', () => {
    test('createBinary answers the Binary (id, contentType, url); download reads its bytes back', async () => {
      const binary = await chen.createBinary({
        data: 'hello, Bloom',
        contentType: 'text/plain',
        filename: 'hello.txt',
      });
      expect(binary).toMatchObject({
        resourceType: 'Binary',
        id: expect.any(String),
        contentType: 'text/plain',
      });
      // A signed URL of the storage route, as Medplum's server presigns Binary.url.
      expect(binary.url).toMatch(
        new RegExp(`^${clinic.server.baseUrl}storage/${binary.id}\\b.*[?&]Signature=`),
      );
      const blob = await chen.download(binary.url as string);
      expect(await blob.text()).toBe('hello, Bloom');
      const byPath = await chen.download(`fhir/R4/Binary/${binary.id}`);
      expect(await byPath.text()).toBe('hello, Bloom');
    });

    test('createAttachment answers an Attachment pointing at the new Binary', async () => {
      const attachment = await chen.createAttachment({
        data: 'scan',
        contentType: 'text/plain',
        filename: 'scan.txt',
      });
      expect(attachment).toMatchObject({ contentType: 'text/plain', title: 'scan.txt' });
      expect(attachment.url).toMatch(new RegExp(`^${clinic.server.baseUrl}storage/[\\w-]+.*[?&]Signature=`));
      expect(await (await chen.download(attachment.url as string)).text()).toBe('scan');
    });

    test('createDocumentReference answers a DocumentReference whose content is the upload', async () => {
      const doc = await chen.createDocumentReference({
        data: 'referral letter',
        contentType: 'text/plain',
        filename: 'referral.txt',
        additionalFields: { subject: { reference: `Patient/${mariaId}` }, description: 'Referral' },
      });
      expect(doc).toMatchObject({
        resourceType: 'DocumentReference',
        id: expect.any(String),
        status: 'current',
        subject: { reference: `Patient/${mariaId}` },
        content: [{ attachment: { contentType: 'text/plain', title: 'referral.txt' } }],
      });
      const url = doc.content[0].attachment.url as string;
      expect(await (await chen.download(url)).text()).toBe('referral letter');
    });

    test('createMedia answers a completed Media whose content is the upload', async () => {
      const media = await chen.createMedia({
        data: new Uint8Array([0x89, 0x50, 0x4e, 0x47]),
        contentType: 'image/png',
        filename: 'scan.png',
        additionalFields: { subject: { reference: `Patient/${mariaId}` } },
      });
      expect(media).toMatchObject({
        resourceType: 'Media',
        id: expect.any(String),
        status: 'completed',
        content: { contentType: 'image/png', title: 'scan.png' },
      });
      const bytes = new Uint8Array(await (await chen.download(media.content.url as string)).arrayBuffer());
      expect(Array.from(bytes)).toEqual([0x89, 0x50, 0x4e, 0x47]);
    });
  });

  test('createComment answers a completed Communication about the resource, from the signed-in user', async () => {
    const obs = await chen.createResource<Observation>({
      resourceType: 'Observation',
      status: 'final',
      code: { text: 'comment' },
      subject: { reference: `Patient/${mariaId}` },
    });
    const comment: Communication = await chen.createComment(obs, 'Looks fine');
    expect(comment).toMatchObject({
      resourceType: 'Communication',
      id: expect.any(String),
      status: 'completed',
      basedOn: [{ reference: `Observation/${obs.id}` }],
      sender: { reference: clinic.chen.profile?.reference },
      sent: expect.any(String),
      payload: [{ contentString: 'Looks fine' }],
    });
  });

  test('keyValue set, get and delete: a value per user, undefined when unset or deleted', async () => {
    const key = `draft-${crypto.randomUUID()}`;
    // An unset key answers 204 No Content (Medplum's server answers 404, which its SDK throws); on
    // 204 the SDK's get() resolves undefined, as its type Promise<string | undefined> promises.
    await expect(maria.keyValue.get(key)).resolves.toBeUndefined();
    await expect(maria.keyValue.set(key, 'note to self')).resolves.toBeUndefined();
    await expect(maria.keyValue.get(key)).resolves.toBe('note to self');
    // Another user's store does not hold it.
    await expect(chen.keyValue.get(key)).resolves.toBeUndefined();
    await expect(maria.keyValue.delete(key)).resolves.toBeUndefined();
    await expect(maria.keyValue.get(key)).resolves.toBeUndefined();
  });

  test('sendEmail (admin) answers an OperationOutcome and the email is sent (DATA_DIR/outbox)', async () => {
    const before = outbox(dataDir).length;
    const subject = `Your appointment ${crypto.randomUUID()}`;
    const outcome = await admin.sendEmail({ to: 'maria@bloom.example', subject, text: 'See you Tuesday.' });
    expect(outcome).toMatchObject({
      resourceType: 'OperationOutcome',
      id: 'ok',
      issue: [{ severity: 'information', code: 'informational', details: { text: 'All OK' } }],
    });
    const sent = outbox(dataDir);
    expect(sent.length).toBe(before + 1);
    expect(sent[sent.length - 1]).toContain(subject);
    // A patient is not allowed to send email.
    const refused = await rejectionOf(
      maria.sendEmail({ to: 'aisha@bloom.example', subject: 'hi', text: 'hi' }),
    );
    expect(outcomeOf(refused)[0]?.code).toBe('forbidden');
  });

  test('invite (admin) answers the new ProjectMembership with its profile', async () => {
    const email = `invitee-${crypto.randomUUID()}@bloom.example`;
    const membership = (await admin.invite(clinic.projectId, {
      resourceType: 'Practitioner',
      firstName: 'Ada',
      lastName: 'Okafor',
      email,
      sendEmail: false,
    })) as ProjectMembership;
    expect(membership).toMatchObject({
      resourceType: 'ProjectMembership',
      id: expect.any(String),
      project: { reference: `Project/${clinic.projectId}` },
      user: { reference: expect.stringMatching(/^User\//) },
      profile: { reference: expect.stringMatching(/^Practitioner\//) },
    });
    const refused = await rejectionOf(
      chen.invite(clinic.projectId, {
        resourceType: 'Patient',
        firstName: 'No',
        lastName: 'Way',
        email: `x-${email}`,
      }),
    );
    expect(outcomeOf(refused)[0]?.code).toBe('forbidden');
  });

  test('invite (admin) with membership.access: the policy and its %patient parameter are stored; a patient is refused', async () => {
    const policy = (await admin.searchOne('AccessPolicy', { name: 'Bloom patient' }))?.id as string;
    expect(policy).toEqual(expect.any(String));
    const access = [
      {
        policy: { reference: `AccessPolicy/${policy}` },
        parameter: [{ name: 'patient', valueReference: { reference: `Patient/${mariaId}` } }],
      },
    ];
    const membership = (await admin.invite(clinic.projectId, {
      // A midwife who follows one patient: the patient policy, parameterised by Maria.
      resourceType: 'Practitioner',
      firstName: 'Rosa',
      lastName: 'Lopez',
      email: `midwife-${crypto.randomUUID()}@bloom.example`,
      sendEmail: false,
      membership: { access },
    })) as ProjectMembership;
    expect(membership.access).toEqual(access);
    const refused = await rejectionOf(
      maria.invite(clinic.projectId, {
        resourceType: 'Patient',
        firstName: 'No',
        lastName: 'Way',
        email: `x-${crypto.randomUUID()}@bloom.example`,
        membership: { access },
      }),
    );
    expect(outcomeOf(refused)[0]?.code).toBe('forbidden');
  });

  describe('executeBot', () => {
    let bot: Bot;

    beforeAll(async () => {
      const deployed = await deployBot(
        clinic,
        'Echo',
        `exports.handler = async (medplum, event) => ({ echoed: event.input, contentType: event.contentType });`,
      );
      bot = await admin.updateResource<Bot>({
        ...(await admin.readResource('Bot', deployed.id as string)),
        identifier: [{ system: BOT_SYSTEM, value: 'echo' }],
      });
    });

    test('by id: answers what the bot returned', async () => {
      const result = await chen.executeBot(bot.id as string, { hello: 'bloom' }, 'application/json');
      expect(result).toEqual({ echoed: { hello: 'bloom' }, contentType: 'application/json' });
    });

    test('by identifier: finds the bot and answers what it returned', async () => {
      const result = await chen.executeBot(
        { system: BOT_SYSTEM, value: 'echo' },
        { n: 2 },
        'application/json',
      );
      expect(result).toEqual({ echoed: { n: 2 }, contentType: 'application/json' });
      const unknown = await rejectionOf(
        chen.executeBot({ system: BOT_SYSTEM, value: 'nobody' }, {}, 'application/json'),
      );
      expect(outcomeOf(unknown)[0]?.code).toBe('not-found');
    });
  });

  test('bulkExport kicks off, polls the status URL and answers the manifest with NDJSON outputs', async () => {
    const manifest = await admin.bulkExport('', 'Patient', undefined, { pollStatusOnAccepted: true });
    expect(manifest).toMatchObject({
      transactionTime: expect.any(String),
      request: expect.stringContaining('$export'),
      requiresAccessToken: true,
    });
    const patients = manifest.output?.find((o) => o.type === 'Patient');
    expect(patients?.url).toEqual(expect.any(String));
    const ndjson = await (await admin.download(patients?.url as string)).text();
    const ids = ndjson
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { id: string }).id);
    expect(ids).toContain(mariaId);
  }, 60_000);

  describe('pushToAgent', () => {
    let destinations: LoopbackDestinations;
    let setup: AgentSetup;
    let agent: BloomAgent;

    beforeAll(async () => {
      destinations = await startLoopbackDestinations();
      setup = await createAgentSetup(clinic.server.db, clinic.projectId);
      agent = await startAgent(agentConfig(clinic.server.baseUrl, setup, { lab: destinations.echoUrl }));
    }, 60_000);

    afterAll(async () => {
      await agent?.stop();
      await destinations?.close();
    });

    test('waiting for the response: answers the destination ACK as text', async () => {
      const message = hl7Message(`SDK${Date.now() % 100000}`);
      const ack = await admin.pushToAgent(
        { reference: `Agent/${setup.agent.id}` },
        'lab',
        message,
        'x-application/hl7-v2+er7',
        true,
      );
      expect(typeof ack).toBe('string');
      expect(ack as string).toContain('MSA|AA|');
      expect(destinations.received).toContain(message);
    });

    test('an unknown destination is refused with an outcome naming it', async () => {
      const refused = await rejectionOf(
        admin.pushToAgent(setup.agent, 'pharmacy', hl7Message('SDK-X'), 'x-application/hl7-v2+er7', true),
      );
      expect(outcomeOf(refused)[0]?.text).toContain('pharmacy');
    });
  });

  test('subscribeToCriteria delivers a matching create as a Bundle over the WebSocket', async () => {
    const code = `subscribed-${crypto.randomUUID()}`;
    const criteria = `Observation?code:text=${code}`;
    const emitter: SubscriptionEmitter = chen.subscribeToCriteria(criteria);
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('not connected within 10 s')), 10_000);
        emitter.addEventListener('connect', () => {
          clearTimeout(timer);
          resolve();
        });
        emitter.addEventListener('error', (event: SubscriptionEventMap['error']) => {
          clearTimeout(timer);
          reject(event.payload);
        });
      });
      const received = new Promise<Bundle>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no notification within 10 s')), 10_000);
        emitter.addEventListener('message', (event: SubscriptionEventMap['message']) => {
          clearTimeout(timer);
          resolve(event.payload);
        });
      });
      const obs = await chen.createResource<Observation>({
        resourceType: 'Observation',
        status: 'final',
        code: { text: code },
        subject: { reference: `Patient/${mariaId}` },
      });
      const bundle = await received;
      expect(bundle).toMatchObject({ resourceType: 'Bundle', type: 'history' });
      const focus = bundle.entry?.find((e) => e.resource?.resourceType === 'Observation')?.resource;
      expect(focus).toMatchObject({ id: obs.id });
    } finally {
      chen.unsubscribeFromCriteria(criteria);
    }
  }, 30_000);
});
