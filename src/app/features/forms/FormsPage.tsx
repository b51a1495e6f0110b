// forms: the clinic's questionnaires offered to the patient, each a link to answer it,
// and her past responses, newest first, named by the form they answer. After she sends a form she
// lands here with a confirmation.
import { useQuery } from '@apollo/client/react';
import type { Questionnaire } from '@medplum/fhirtypes';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useLocation } from 'react-router-dom';
import { FormsListDocument } from '../../../graphql';
import { DateTimeDisplay } from '../../components/DateTimeDisplay';
import { EmptyState, LoadError, LoadingState } from '../../components/ListStates';
import { PageHeading } from '../../components/PageHeading';
import { ResourceLink } from '../../components/ResourceLink';
import { StatusBadge } from '../../components/StatusBadge';
import { useLocale, useT } from '../../i18n/LocaleProvider';
import { extensionSibling, translatedText } from '../../i18n/translatedText';
import { useSession } from '../../session/BloomClientContext';
import { isQuestionnaire } from './questionnaireResource';
import { formsStrings } from './strings';

interface SentState {
  sent?: string;
}

/** A canonical without its `|version`. */
function withoutVersion(canonical: string): string {
  const bar = canonical.indexOf('|');
  return bar < 0 ? canonical : canonical.slice(0, bar);
}

export function FormsPage() {
  const t = useT();
  const locale = useLocale();
  const { profile } = useSession();
  const location = useLocation();
  const sent = (location.state as SentState | null)?.sent;
  const patient = profile?.resourceType === 'Patient' && profile.id ? `Patient/${profile.id}` : '';
  const { data, loading, error, refetch } = useQuery(FormsListDocument, {
    variables: { patient },
    skip: !patient,
  });
  const forms = (data?.questionnaires.resources ?? []).filter(isQuestionnaire);
  const responses = (data?.QuestionnaireResponseList ?? []).flatMap((response) =>
    response ? [response] : [],
  );
  // The form's title in her language where the data translates it.
  const titleOf = (form: Questionnaire | undefined): string =>
    translatedText(extensionSibling(form, 'title'), form?.title, locale) ??
    form?.name ??
    t(formsStrings.form);
  const formOf = (canonical: string | null | undefined): Questionnaire | undefined => {
    const url = withoutVersion(canonical ?? '');
    return forms.find((candidate) => candidate.url === url || `Questionnaire/${candidate.id}` === url);
  };
  return (
    <Box sx={{ maxWidth: 1000, mx: 'auto', px: { xs: 2, sm: 3 }, py: { xs: 3, sm: 5 } }}>
      <PageHeading title={t(formsStrings.title)} />
      {sent && (
        <Alert severity="success" sx={{ mb: 2 }}>
          {t(formsStrings.sent, { form: sent })}
        </Alert>
      )}
      {!patient && <EmptyState text={t(formsStrings.notPatient)} />}
      {error && <LoadError error={error} onRetry={() => void refetch()} />}
      {loading && !data && <LoadingState label={t(formsStrings.loadingList)} />}
      {data && (
        <>
          <Typography variant="h2" sx={{ fontSize: '1.3rem', mt: 2 }}>
            {t(formsStrings.toFill)}
          </Typography>
          {forms.length === 0 ? (
            <EmptyState text={t(formsStrings.noForms)} />
          ) : (
            <List aria-label={t(formsStrings.toFill)}>
              {forms.map((form) => (
                <ListItem key={form.id} divider sx={{ px: 0, display: 'block' }}>
                  <ResourceLink to={`/forms/${form.id ?? ''}`}>{titleOf(form)}</ResourceLink>
                  {form.description && (
                    <Typography variant="body2" color="text.secondary">
                      {translatedText(extensionSibling(form, 'description'), form.description, locale)}
                    </Typography>
                  )}
                </ListItem>
              ))}
            </List>
          )}
          <Typography variant="h2" sx={{ fontSize: '1.3rem', mt: 3 }}>
            {t(formsStrings.yourAnswers)}
          </Typography>
          {responses.length === 0 ? (
            <EmptyState text={t(formsStrings.noAnswers)} />
          ) : (
            <List aria-label={t(formsStrings.yourAnswers)}>
              {responses.map((response) => (
                <ListItem key={response.id} divider sx={{ px: 0 }}>
                  <Stack
                    direction="row"
                    spacing={2}
                    sx={{
                      width: '100%',
                      alignItems: 'center',
                      justifyContent: 'space-between',
                      flexWrap: 'wrap',
                    }}
                  >
                    <ResourceLink to={`/forms/responses/${response.id}`}>
                      {titleOf(formOf(response.questionnaire))}
                    </ResourceLink>
                    <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
                      <Typography variant="body2" color="text.secondary">
                        <DateTimeDisplay value={response.authored} />
                      </Typography>
                      {response.status && <StatusBadge status={response.status} kind="form" />}
                    </Stack>
                  </Stack>
                </ListItem>
              ))}
            </List>
          )}
        </>
      )}
    </Box>
  );
}
