// forms/{questionnaireId}: one of the clinic's questionnaires to answer. Saving creates
// a completed QuestionnaireResponse about the patient, written by her, naming the form by its
// canonical URL; the server checks it against the form, and the patient returns to her list.
import { useQuery } from '@apollo/client/react';
import type { Questionnaire, QuestionnaireResponse, QuestionnaireResponseItem } from '@medplum/fhirtypes';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useMemo, useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { EPDS_QUESTIONNAIRE_URL } from '../../../fhir/screening/epds';
import { QuestionnaireFormDocument } from '../../../graphql';
import { errorOutcome } from '../../api/errorOutcome';
import { LoadError, LoadingState } from '../../components/ListStates';
import { NotFoundPanel } from '../../components/NotFoundPanel';
import { PageHeading } from '../../components/PageHeading';
import { ResourceLink } from '../../components/ResourceLink';
import { useBloomClient, useSession } from '../../session/BloomClientContext';
import { fromGraphql } from './graphqlResource';
import { QuestionnaireForm } from './QuestionnaireForm';
import { useExpandedValueSets } from './useExpandedValueSets';

/** The canonical a response names: the form's URL, or its reference when it has none. */
export function questionnaireCanonical(questionnaire: Questionnaire): string {
  return questionnaire.url ?? `Questionnaire/${questionnaire.id ?? ''}`;
}

export function QuestionnairePage() {
  const { questionnaireId = '' } = useParams();
  const client = useBloomClient();
  const { profile } = useSession();
  const navigate = useNavigate();
  const [sending, setSending] = useState(false);
  const [message, setMessage] = useState<string>();
  const { data, loading, error, refetch } = useQuery(QuestionnaireFormDocument, {
    variables: { id: questionnaireId },
  });
  const questionnaire = useMemo(
    () => (data?.Questionnaire ? fromGraphql<Questionnaire>(data.Questionnaire) : undefined),
    [data],
  );
  const expanded = useExpandedValueSets(questionnaire);

  if (loading && !data) {
    return <LoadingState label="Loading the form" />;
  }
  if (error && !data) {
    return error.message === 'Not found' ? (
      <NotFoundPanel />
    ) : (
      <LoadError error={error} onRetry={() => void refetch()} />
    );
  }
  if (!questionnaire) {
    return <NotFoundPanel />;
  }
  const title = questionnaire.title ?? questionnaire.name ?? 'Form';

  async function save(items: QuestionnaireResponseItem[]) {
    if (!questionnaire || profile?.resourceType !== 'Patient' || !profile.id) {
      setMessage('Only a patient can answer this form.');
      return;
    }
    const patient = { reference: `Patient/${profile.id}` };
    setSending(true);
    setMessage(undefined);
    try {
      const created = await client.createResource<QuestionnaireResponse>({
        resourceType: 'QuestionnaireResponse',
        questionnaire: questionnaireCanonical(questionnaire),
        status: 'completed',
        subject: patient,
        author: patient,
        source: patient,
        authored: new Date().toISOString(),
        item: items,
      });
      // A screening the clinic scores (the EPDS) ends on the screening's message (features/screening).
      const next = questionnaire.url === EPDS_QUESTIONNAIRE_URL ? `/screening/${created.id ?? ''}` : '/forms';
      void navigate(next, { state: { sent: title, responseId: created.id } });
    } catch (err) {
      const issues = errorOutcome(err).issue ?? [];
      setMessage(
        issues
          .map((issue) => issue.details?.text ?? issue.diagnostics ?? '')
          .filter(Boolean)
          .join(' ') || 'The form could not be sent.',
      );
      setSending(false);
    }
  }

  return (
    <Box sx={{ maxWidth: 760, mx: 'auto', px: { xs: 2, sm: 3 }, py: { xs: 3, sm: 5 } }}>
      <Typography sx={{ mb: 1 }}>
        <ResourceLink to="/forms">Back to forms</ResourceLink>
      </Typography>
      <PageHeading title={title} />
      {questionnaire.description && (
        <Typography color="text.secondary" sx={{ mb: 3 }}>
          {questionnaire.description}
        </Typography>
      )}
      <QuestionnaireForm
        questionnaire={questionnaire}
        expanded={expanded}
        submitting={sending}
        message={message}
        onSubmit={save}
      />
    </Box>
  );
}
