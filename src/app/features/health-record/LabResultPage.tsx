// health-record/lab-results/{resultId}: the diagnostic report view of SPEC §2 — results table (Test,
// Value, Reference Range, Interpretation, Category, Performer, Status) with the critical codes AA, LL,
// HH, A highlighted (SPEC §9), Specimens (Collected, Received), notes and presentedForm. On phones the
// results stack as cards (LabResultCards) so the critical flag is on screen without side-scrolling.
import { useQuery } from '@apollo/client/react';
import Box from '@mui/material/Box';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useParams } from 'react-router-dom';
import { LabResultDetailDocument, type LabResultDetailQuery } from '../../../graphql';
import { AttachmentViewer } from '../../components/AttachmentViewer';
import { DateTimeDisplay } from '../../components/DateTimeDisplay';
import { EmptyState, LoadError, LoadingState } from '../../components/ListStates';
import { ResourceLink } from '../../components/ResourceLink';
import { StatusBadge } from '../../components/StatusBadge';
import { useT } from '../../i18n/LocaleProvider';
import { DetailFields } from './DetailFields';
import { isCritical } from './interpretation';
import { CRITICAL_BG, CRITICAL_FG, LabResultCards } from './LabResultCards';
import { NotesList } from './NotesList';
import {
  conceptsText,
  conceptText,
  observationValueText,
  rangesText,
  referenceText,
} from './observationValues';
import { PageHeading } from '../../components/PageHeading';
import type { ResultObservation } from './resultObservation';
import { recordStrings as m } from './strings';

type Report = NonNullable<LabResultDetailQuery['DiagnosticReport']>;
type ResultRef = NonNullable<NonNullable<Report['result']>[number]>;

/** Below MUI's sm breakpoint (600 px): the table would need side-scrolling. */
const PHONE_QUERY = '(max-width:599.95px)';
type SpecimenRef = NonNullable<NonNullable<Report['specimen']>[number]>;
type SpecimenResource = Extract<NonNullable<SpecimenRef['resource']>, { resourceType: string }>;

function ResultRow({ result }: { result: ResultObservation }) {
  const t = useT();
  const critical = isCritical(result.interpretation);
  const cellSx = critical ? { color: CRITICAL_FG, fontWeight: 700 } : undefined;
  return (
    <TableRow data-critical={critical || undefined} sx={critical ? { bgcolor: CRITICAL_BG } : undefined}>
      <TableCell component="th" scope="row" sx={cellSx}>
        <ResourceLink to={{ resourceType: 'Observation', id: result.id }}>
          {conceptText(result.code) || t(m.result)}
        </ResourceLink>
      </TableCell>
      <TableCell sx={cellSx}>{observationValueText(result)}</TableCell>
      <TableCell>{rangesText(result.referenceRange)}</TableCell>
      <TableCell sx={cellSx}>
        {conceptsText(result.interpretation)}
        {critical && (
          <Box component="span" sx={{ display: 'block', fontSize: '0.75rem', textTransform: 'uppercase' }}>
            {t(m.critical)}
          </Box>
        )}
      </TableCell>
      <TableCell>{conceptsText(result.category)}</TableCell>
      <TableCell>{referenceText(result.performer)}</TableCell>
      <TableCell>{result.status && <StatusBadge status={result.status} kind="result" />}</TableCell>
    </TableRow>
  );
}

function isObservation(resource: ResultRef['resource'] | undefined): resource is ResultObservation {
  return !!resource && 'resourceType' in resource && resource.resourceType === 'Observation';
}

function isSpecimen(resource: SpecimenRef['resource'] | undefined): resource is SpecimenResource {
  return !!resource && 'resourceType' in resource && resource.resourceType === 'Specimen';
}

export function ReportResultsTable({
  results,
  stacked: givenStacked,
}: {
  results: readonly ResultObservation[];
  /** Cards instead of the table; by default below the sm breakpoint (phones). */
  stacked?: boolean;
}) {
  const phone = useMediaQuery(PHONE_QUERY, { noSsr: true });
  const t = useT();
  if (results.length === 0) return <EmptyState text={t(m.noResults)} />;
  if (givenStacked ?? phone) return <LabResultCards results={results} />;
  const columns = [
    m.test,
    m.value,
    m.referenceRangeColumn,
    m.interpretation,
    m.category,
    m.performer,
    m.status,
  ];
  return (
    <TableContainer tabIndex={0} aria-label={t(m.resultsTable)} sx={{ overflowX: 'auto' }}>
      <Table size="small" aria-label={t(m.results)}>
        <TableHead>
          <TableRow>
            {columns.map((column) => (
              <TableCell key={column.id} scope="col" sx={{ fontWeight: 700 }}>
                {t(column)}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {results.map((result) => (
            <ResultRow key={result.id} result={result} />
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

function Specimens({ specimens }: { specimens: readonly SpecimenResource[] }) {
  const t = useT();
  if (specimens.length === 0) return null;
  return (
    <section aria-labelledby="specimens-heading">
      <Typography id="specimens-heading" variant="h2" sx={{ fontSize: '1.2rem', mt: 3 }}>
        {t(m.specimens)}
      </Typography>
      {specimens.map((specimen) => (
        <Box key={specimen.id} sx={{ borderBottom: 1, borderColor: 'divider', py: 1 }}>
          <Typography sx={{ fontWeight: 600 }}>{conceptText(specimen.type) || t(m.specimen)}</Typography>
          <DetailFields
            fields={[
              [t(m.collected), <DateTimeDisplay key="c" value={specimen.collection?.collectedDateTime} />],
              [t(m.received), <DateTimeDisplay key="r" value={specimen.receivedTime} />],
            ]}
          />
          <NotesList title={t(m.specimenNotes)} notes={specimen.note} />
        </Box>
      ))}
    </section>
  );
}

export function LabResultPage() {
  const { resultId = '' } = useParams();
  const { data, loading, error, refetch } = useQuery(LabResultDetailDocument, {
    variables: { id: resultId },
  });
  const t = useT();
  const report = data?.DiagnosticReport;
  if (loading && !data) return <LoadingState label={t(m.loadingLabResult)} />;
  if (error) return <LoadError error={error} onRetry={() => void refetch()} />;
  if (!report) return <EmptyState text={t(m.labResultNotFound)} />;
  const results = (report.result ?? []).flatMap((ref) =>
    isObservation(ref?.resource) ? [ref.resource] : [],
  );
  const specimens = (report.specimen ?? []).flatMap((ref) =>
    isSpecimen(ref?.resource) ? [ref.resource] : [],
  );
  const notes = results.flatMap((result) => result.note ?? []);
  return (
    <>
      <PageHeading title={conceptText(report.code) || t(m.labResult)} />
      <DetailFields
        fields={[
          [t(m.status), report.status ? <StatusBadge status={report.status} kind="result" /> : ''],
          [t(m.collected), <DateTimeDisplay key="e" value={report.effectiveDateTime} />],
          [t(m.issued), <DateTimeDisplay key="i" value={report.issued} />],
          [t(m.performer), referenceText(report.performer)],
          [t(m.conclusion), report.conclusion ?? ''],
        ]}
      />
      <ReportResultsTable results={results} />
      <Specimens specimens={specimens} />
      <NotesList notes={notes} />
      {(report.presentedForm ?? []).map(
        (form, index) => form && <AttachmentViewer key={index} attachment={form} />,
      )}
    </>
  );
}
