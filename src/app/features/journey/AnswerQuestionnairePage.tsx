// /pregnancy/questionnaire?url=...: a care-plan step offers the questionnaire by its canonical URL (the
// template's definitionCanonical); this finds the clinic's Questionnaire with that URL and opens its
// form, replacing this page in the history so Back returns to the step. One QuestionnaireByUrl query.
import { useQuery } from '@apollo/client/react';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import { Navigate, Link as RouterLink, useSearchParams } from 'react-router-dom';
import { QuestionnaireByUrlDocument } from '../../../graphql';
import { EmptyState, LoadError, LoadingState } from '../../components/ListStates';
import { PageHeading } from '../../components/PageHeading';

export function AnswerQuestionnairePage() {
  const [params] = useSearchParams();
  const url = params.get('url') ?? '';
  const { data, loading, error, refetch } = useQuery(QuestionnaireByUrlDocument, {
    variables: { url },
    skip: !url,
  });
  const id = data?.QuestionnaireList?.[0]?.id;
  if (id) return <Navigate to={`/forms/${id}`} replace />;
  return (
    <Box sx={{ maxWidth: 900, mx: 'auto', px: { xs: 2, sm: 3 }, py: { xs: 3, sm: 5 } }}>
      <PageHeading title="Questionnaire" />
      {error && <LoadError error={error} onRetry={() => void refetch()} />}
      {loading && <LoadingState label="Opening the questionnaire" />}
      {(!url || (data && !id)) && (
        <EmptyState text="This questionnaire is not available. Please ask your care team." />
      )}
      <Link component={RouterLink} to="/pregnancy">
        Back to your care plan
      </Link>
    </Box>
  );
}

export default AnswerQuestionnairePage;
