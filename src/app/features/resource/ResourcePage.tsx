// The generic resource page /:resourceType/:id (SPEC §2 Links): the resource read over REST
// (GET {type}/{id}, or GET {type}/{id}/_history/{vid} for an older version), its fields laid out by
// the type's StructureDefinition (useResourceSchema), an Edit tab (its JSON, saved with a PUT), its
// JSON and its history, as tabs.
// What the server refuses (404 for what the caller may not see, 403) is shown as a readable panel.
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import type { CodeableConcept, Resource } from '@medplum/fhirtypes';
import { useId, useState } from 'react';
import { useParams } from 'react-router-dom';
import type { BloomClient, TypeSchema } from '../../../client';
import { getDisplayString } from '../../../fhir/references';
import { DateTimeDisplay } from '../../components/DateTimeDisplay';
import { LoadingState } from '../../components/ListStates';
import { NotFoundPanel } from '../../components/NotFoundPanel';
import { ResourceLink } from '../../components/ResourceLink';
import { useBloomClient } from '../../session/BloomClientContext';
import { ResourceEdit } from './ResourceEdit';
import { ResourceFields } from './ResourceFields';
import { ResourceHistory } from './ResourceHistory';
import { ResourceJson } from './ResourceJson';
import { ResourceProblem } from './ResourceProblem';
import { ShareContextSwitch } from './share/ShareContextSwitch';
import { useSharedView } from '../../session/share/ShareContextProvider';
import { useResourceSchema } from './useResourceSchema';
import { useLoaded } from './useLoaded';
import { codeableConceptText } from './valueText';

const TABS = ['Details', 'Edit', 'JSON', 'History'] as const;
type TabName = (typeof TABS)[number];

/** A name where the resource has one, else its code's text (Observation, DiagnosticReport...), else Type/id. */
export function resourceTitle(resource: Resource): string {
  const code = (resource as { code?: CodeableConcept }).code;
  const codeText = code && typeof code === 'object' ? codeableConceptText(code) : '';
  return getDisplayString(resource) ?? (codeText || `${resource.resourceType}/${resource.id ?? ''}`);
}

function readShown(client: BloomClient, resourceType: string, id: string, versionId?: string) {
  const type = resourceType as Resource['resourceType'];
  return versionId
    ? client.readVersion<Resource>(type, id, versionId)
    : client.readResource<Resource>(type, id);
}

export function ResourcePage() {
  const { resourceType = '', id = '', versionId } = useParams();
  const schema = useResourceSchema(resourceType);
  if (schema.status === 'loading') return <LoadingState label="Loading" />;
  if (schema.status === 'unknown') return <NotFoundPanel what={`The resource type "${resourceType}"`} />;
  if (schema.status === 'error') return <ResourceProblem what={resourceType} error={schema.error} />;
  // Keyed so the tab and the loaded resource start afresh on another resource or version.
  return (
    <LoadedResource
      key={`${resourceType}/${id}/${versionId ?? ''}`}
      schema={schema.value}
      resourceType={resourceType}
      id={id}
      versionId={versionId}
    />
  );
}

interface LoadedResourceProps {
  readonly schema: TypeSchema;
  readonly resourceType: string;
  readonly id: string;
  readonly versionId: string | undefined;
}

function LoadedResource({ schema, resourceType, id, versionId }: LoadedResourceProps) {
  const client = useBloomClient();
  const loaded = useLoaded(`${resourceType}/${id}/${versionId ?? ''}`, () =>
    readShown(client, resourceType, id, versionId),
  );
  // The current version is what the user views: that is what context sharing announces.
  useSharedView(loaded.status === 'ok' && !versionId ? loaded.value : undefined);
  const what = `${resourceType}/${id}`;
  if (loaded.status === 'loading') return <LoadingState label={`Loading ${what}`} />;
  if (loaded.status === 'error') {
    return (
      <>
        <title>{`${what} · Bloom`}</title>
        <ResourceProblem what={what} error={loaded.error} />
      </>
    );
  }
  return <ResourceView schema={schema} resource={loaded.value} versionId={versionId} />;
}

function ResourceView({
  schema,
  resource: loadedResource,
  versionId,
}: {
  schema: TypeSchema;
  resource: Resource;
  versionId: string | undefined;
}) {
  const [tab, setTab] = useState<TabName>('Details');
  // After a save the page shows the version the server returned.
  const [resource, setResource] = useState(loadedResource);
  // An earlier version is read-only: only the current one has an Edit tab.
  const tabs = versionId ? TABS.filter((name) => name !== 'Edit') : TABS;
  const baseId = useId();
  const resourceType = resource.resourceType;
  const id = resource.id ?? '';
  const title = resourceTitle(resource);
  const tabId = (name: TabName) => `${baseId}-tab-${name}`;
  const panelId = (name: TabName) => `${baseId}-panel-${name}`;
  return (
    <Box sx={{ minWidth: 0 }}>
      <title>{`${title} · Bloom`}</title>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 2, mb: 1 }}>
        <Box sx={{ flex: '1 1 auto', minWidth: 0 }}>
          <Typography variant="h1" sx={{ fontSize: { xs: '1.6rem', sm: '2rem' }, overflowWrap: 'anywhere' }}>
            {title}
          </Typography>
          <Typography color="text.secondary">
            {resourceType} · {id}
            {resource.meta?.lastUpdated && (
              <>
                {' · Last updated '}
                <DateTimeDisplay value={resource.meta.lastUpdated} />
              </>
            )}
          </Typography>
        </Box>
        <ShareContextSwitch />
      </Box>
      {versionId && (
        <Alert severity="info" sx={{ my: 1 }}>
          {'You are viewing an earlier version ('}
          {versionId}
          {'). '}
          <ResourceLink to={{ resourceType, id }}>Show the current version</ResourceLink>
        </Alert>
      )}
      <Tabs
        value={tab}
        onChange={(_, value: TabName) => setTab(value)}
        aria-label="Resource views"
        variant="scrollable"
        allowScrollButtonsMobile
        sx={{ borderBottom: 1, borderColor: 'divider' }}
      >
        {tabs.map((name) => (
          <Tab key={name} value={name} label={name} id={tabId(name)} aria-controls={panelId(name)} />
        ))}
      </Tabs>
      {tabs.map((name) => (
        <Box
          key={name}
          role="tabpanel"
          id={panelId(name)}
          aria-labelledby={tabId(name)}
          hidden={tab !== name}
          sx={{ py: 1 }}
        >
          {tab === name && name === 'Details' && (
            <ResourceFields schema={schema} path="" value={resource as unknown as Record<string, unknown>} />
          )}
          {tab === name && name === 'Edit' && <ResourceEdit resource={resource} onSaved={setResource} />}
          {tab === name && name === 'JSON' && <ResourceJson resource={resource} />}
          {tab === name && name === 'History' && <ResourceHistory resourceType={resourceType} id={id} />}
        </Box>
      ))}
    </Box>
  );
}
