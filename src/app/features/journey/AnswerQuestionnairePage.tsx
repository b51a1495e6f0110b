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
import { useT } from '../../i18n/LocaleProvider';
import { journeyStrings } from './strings';

export function AnswerQuestionnairePage() {
  const t = useT();
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
      <PageHeading title={t(journeyStrings.questionnaire)} />
      {error && <LoadError error={error} onRetry={() => void refetch()} />}
      {loading && <LoadingState label={t(journeyStrings.opening)} />}
      {(!url || (data && !id)) && <EmptyState text={t(journeyStrings.unavailable)} />}
      <Link component={RouterLink} to="/pregnancy">
        {t(journeyStrings.backToPlan)}
      </Link>
    </Box>
  );
}

export default AnswerQuestionnairePage;
