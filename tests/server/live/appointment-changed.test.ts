// Her appointments as they change, over graphql-ws (the app's system notifications, SPEC §7 live
// updates): the codegen-typed AppointmentNoticeChanged(patient) emits each Appointment of hers created
// or updated after it starts, with its status and answers; a patient never hears of another patient's
// appointment, neither through her own subscription nor by naming the other patient.
import type { AccessPolicy, Appointment, Project } from '@medplum/fhirtypes';
import { print } from 'graphql';
import { createClient } from 'graphql-ws';
import type { Client } from 'graphql-ws';
import WebSocket from 'ws';
import {
  AppointmentNoticeChangedDocument,
  type AppointmentNoticeChangedSubscription,
} from '../../../src/graphql/generated/operations';
import { Repository, systemContext } from '../../../src/server/repo';
import { getLiveGraphQLSchema } from '../../../src/server/live/graphql-subscriptions';
import { addMembership, createProject, createUser, signIn } from '../auth/support/auth-fixtures';
import type { Tokens } from '../auth/support/auth-fixtures';
import { databases } from '../support/test-databases';
import { startTestServer } from '../support/test-server';
import type { TestServer } from '../support/test-server';

jest.setTimeout(60_000);

type Changed = NonNullable<AppointmentNoticeChangedSubscription['AppointmentChanged']>;

describe.each(databases())('AppointmentChanged for a patient on %s', (_engine, kind) => {
  let server: TestServer;
  let maria: Tokens;
  let aisha: Tokens;
  let practitioner: Tokens;
  const clients: Client[] = [];

  function listen(tokens: Tokens, patient: string) {
    const client = createClient({
      url: `${server.baseUrl.replace('http', 'ws')}ws/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { token: tokens.access_token },
      retryAttempts: 0,
    });
    clients.push(client);
    const results: Changed[] = [];
    const errors: unknown[] = [];
    client.subscribe<AppointmentNoticeChangedSubscription>(
      { query: print(AppointmentNoticeChangedDocument), variables: { patient } },
      {
        next: (result) => {
          if (result.data?.AppointmentChanged) results.push(result.data.AppointmentChanged);
          if (result.errors) errors.push(result.errors);
        },
        error: (error) => errors.push(error),
        complete: () => undefined,
      },
    );
    return { results, errors };
  }

  async function until(check: () => boolean, what: string): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (!check()) {
      if (Date.now() > deadline) throw new Error(`no ${what} in time`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async function write(appointment: Appointment, method = 'POST'): Promise<Appointment> {
    const path = method === 'PUT' ? `Appointment/${appointment.id}` : 'Appointment';
    const response = await fetch(`${server.fhirUrl}${path}`, {
      method,
      headers: {
        'content-type': 'application/fhir+json',
        authorization: `Bearer ${practitioner.access_token}`,
      },
      body: JSON.stringify(appointment),
    });
    expect(response.status).toBe(method === 'PUT' ? 200 : 201);
    return (await response.json()) as Appointment;
  }

  function appointmentFor(patient: Tokens): Appointment {
    return {
      resourceType: 'Appointment',
      status: 'booked',
      start: '2026-12-07T09:00:00Z',
      end: '2026-12-07T09:30:00Z',
      participant: [
        { actor: { reference: patient.profile?.reference }, status: 'accepted' },
        { actor: { reference: practitioner.profile?.reference }, status: 'tentative' },
      ],
    };
  }

  beforeAll(async () => {
    server = await startTestServer(kind, {}, { requireAuth: true });
    await getLiveGraphQLSchema();
    const project: Project = await createProject(server.db, 'Appointment Live Clinic');
    const policy = await new Repository(server.db, systemContext(project.id)).createResource<AccessPolicy>({
      resourceType: 'AccessPolicy',
      name: 'Live patient appointments',
      compartment: { reference: '%patient' },
      resource: [
        { resourceType: 'Patient', compartment: { reference: '%patient' } },
        { resourceType: 'Appointment', compartment: { reference: '%patient' } },
      ],
    });
    const withPolicy = { ...project, defaultPatientAccessPolicy: { reference: `AccessPolicy/${policy.id}` } };
    [maria, aisha, practitioner] = await Promise.all(
      (['Patient', 'Patient', 'Practitioner'] as const).map(async (type) => {
        const user = await createUser(server.db);
        await addMembership(server.db, user, withPolicy, type);
        return signIn(server.baseUrl, user.email as string);
      }),
    );
  });

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.dispose()));
    await server.close();
  });

  test("she hears of her appointment booked and then declined, and never of another patient's", async () => {
    const mariaRef = maria.profile?.reference ?? '';
    const aishaRef = aisha.profile?.reference ?? '';
    const hers = listen(maria, mariaRef);
    const naming = listen(maria, aishaRef);
    const aishas = listen(aisha, aishaRef);
    // Let the subscriptions start before writing.
    await new Promise((resolve) => setTimeout(resolve, 1500));

    await write(appointmentFor(aisha));
    const booked = await write(appointmentFor(maria));
    await until(() => hers.results.length >= 1 && aishas.results.length >= 1, 'appointment');
    expect(hers.results[0]).toMatchObject({ resourceType: 'Appointment', id: booked.id, status: 'booked' });

    await write(
      {
        ...booked,
        status: 'cancelled',
        participant: [
          { actor: { reference: mariaRef }, status: 'accepted' },
          { actor: { reference: practitioner.profile?.reference }, status: 'declined' },
        ],
      },
      'PUT',
    );
    await until(() => hers.results.length >= 2, 'update');
    expect(hers.results[1]).toMatchObject({
      id: booked.id,
      status: 'cancelled',
      participant: [
        { actor: { reference: mariaRef }, status: 'accepted' },
        { actor: { reference: practitioner.profile?.reference }, status: 'declined' },
      ],
    });
    // Aisha's appointment reached Aisha, never Maria, even when Maria names her.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(hers.results.map((a) => a.id)).toEqual([booked.id, booked.id]);
    expect(naming.results).toEqual([]);
    expect(aishas.results).toHaveLength(1);
    expect(aishas.results[0].id).not.toBe(booked.id);
  });
});
