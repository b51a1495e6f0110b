// A page of Medplum's published React components (@medplum/react, unchanged) signed in to Bloom's
// server with Medplum's own MedplumClient, for the medplum-react conformance suite. The test's page
// server gives the API's base URL in /config.json; the path chooses the component:
//   /search/Observation   SearchControl (its search definition kept in the page's state)
//   /table/Patient/{id}   ResourceTable
//   /form/Patient/{id}    ResourceForm, saving with updateResource as Medplum's app does
//   /thread/{id}          ThreadChat on a thread (a Communication its messages point to with partOf)
//   /inbox[/{id}]         ThreadInbox: the in-progress threads, and the chosen one's ThreadChat
//   /portal               a patient portal (portal.tsx): health record, a lab result, messages,
//                         profile, booking with Schedule/$find and Appointment/$book, sign out
// Signed out, every path shows Medplum's SignInForm first.
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import '@medplum/react/styles.css';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { formatSearchQuery, MedplumClient, normalizeErrorString, type SearchRequest } from '@medplum/core';
import type { Communication, Resource, ResourceType } from '@medplum/fhirtypes';
import {
  Loading,
  MedplumProvider,
  ResourceForm,
  ResourceTable,
  SearchControl,
  SignInForm,
  ThreadChat,
  ThreadInbox,
  useMedplum,
  useMedplumProfile,
  useResource,
} from '@medplum/react';
import { StrictMode, useState, type JSX } from 'react';
import { createRoot } from 'react-dom/client';
import { PortalPage } from './portal';

function SearchPage({ resourceType }: { readonly resourceType: ResourceType }): JSX.Element {
  const [search, setSearch] = useState<SearchRequest>({
    resourceType,
    fields: ['id', 'code', 'value[x]', 'effective[x]', 'status'],
    count: 5,
  });
  return <SearchControl search={search} onChange={(event) => setSearch(event.definition)} />;
}

function FormPage({ reference }: { readonly reference: string }): JSX.Element {
  const medplum = useMedplum();
  const [status, setStatus] = useState('');
  const save = (resource: Resource): void => {
    setStatus('Saving');
    medplum
      .updateResource(resource)
      .then((saved) => setStatus(`Saved version ${saved.meta?.versionId ?? '?'}`))
      .catch((err: unknown) => setStatus(`Save failed: ${normalizeErrorString(err)}`));
  };
  return (
    <>
      <ResourceForm defaultValue={{ reference }} onSubmit={save} />
      <p role="status">{status}</p>
    </>
  );
}

function ThreadPage({ id }: { readonly id: string }): JSX.Element {
  const thread = useResource<Communication>({ reference: `Communication/${id}` });
  return thread ? <ThreadChat thread={thread} /> : <Loading />;
}

function InboxPage({ threadId }: { readonly threadId: string | undefined }): JSX.Element {
  const [query, setQuery] = useState('status=in-progress&_sort=-_lastUpdated');
  return (
    <ThreadInbox
      query={query}
      threadId={threadId}
      onNew={() => undefined}
      getThreadUri={(thread) => `/inbox/${thread.id}`}
      onChange={(search) => setQuery(formatSearchQuery(search).slice(1))}
      inProgressUri="/inbox?status=in-progress"
      completedUri="/inbox?status=completed"
    />
  );
}

function Route({ path }: { readonly path: string[] }): JSX.Element {
  const [kind, first, second] = path;
  if (kind === 'search' && first) return <SearchPage resourceType={first as ResourceType} />;
  if (kind === 'table' && first && second)
    return <ResourceTable value={{ reference: `${first}/${second}` }} />;
  if (kind === 'form' && first && second) return <FormPage reference={`${first}/${second}`} />;
  if (kind === 'thread' && first) return <ThreadPage id={first} />;
  if (kind === 'inbox') return <InboxPage threadId={first} />;
  if (kind === 'portal') return <PortalPage />;
  return <p>Unknown page {window.location.pathname}</p>;
}

function Page(): JSX.Element {
  const profile = useMedplumProfile();
  const medplum = useMedplum();
  if (medplum.isLoading()) return <Loading />;
  if (!profile) return <SignInForm onSuccess={() => undefined}>Sign in to Bloom</SignInForm>;
  return (
    <main>
      <h1>Medplum components</h1>
      <Route path={window.location.pathname.split('/').filter(Boolean)} />
    </main>
  );
}

async function start(): Promise<void> {
  const config = (await (await fetch('/config.json')).json()) as { baseUrl: string };
  const medplum = new MedplumClient({ baseUrl: config.baseUrl });
  const root = document.getElementById('root');
  if (!root) throw new Error('no #root');
  createRoot(root).render(
    <StrictMode>
      <MedplumProvider medplum={medplum}>
        <MantineProvider>
          <Notifications />
          <Page />
        </MantineProvider>
      </MedplumProvider>
    </StrictMode>,
  );
}

start().catch((err: unknown) => {
  document.body.textContent = `Page failed to start: ${String(err)}`;
});
