// forms/{questionnaireId}: one of the clinic's questionnaires to answer. Saving creates
// a completed QuestionnaireResponse about the patient, written by her, naming the form by its
// canonical URL; the server checks it against the form, and the patient returns to her list. The
// form's texts show in the active language where the Questionnaire carries translations.
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
import { useLocale, useT } from '../../i18n/LocaleProvider';
import { extensionSibling, translatedText } from '../../i18n/translatedText';
import { useBloomClient, useSession } from '../../session/BloomClientContext';
import { QuestionnaireForm } from './QuestionnaireForm';
import { questionnaireOf } from './questionnaireResource';
import { formsStrings } from './strings';
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
  const t = useT();
  const locale = useLocale();
  const [sending, setSending] = useState(false);
  const [message, setMessage] = useState<string>();
  const { data, loading, error, refetch } = useQuery(QuestionnaireFormDocument, {
    variables: { search: `_id=${encodeURIComponent(questionnaireId)}` },
  });
  const questionnaire = useMemo(() => questionnaireOf(data?.ResourceSearch.resources), [data]);
  const expanded = useExpandedValueSets(questionnaire);

  if (loading && !data) {
    return <LoadingState label={t(formsStrings.loadingForm)} />;
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
  // The response keeps the form's own title; the screen shows it in her language.
  const title = questionnaire.title ?? questionnaire.name ?? t(formsStrings.form);
  const shownTitle = translatedText(extensionSibling(questionnaire, 'title'), title, locale) ?? title;
  const description = translatedText(
    extensionSibling(questionnaire, 'description'),
    questionnaire.description,
    locale,
  );

  async function save(items: QuestionnaireResponseItem[]) {
    if (!questionnaire || profile?.resourceType !== 'Patient' || !profile.id) {
      setMessage(t(formsStrings.onlyPatient));
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
      void navigate(next, { state: { sent: shownTitle, responseId: created.id } });
    } catch (err) {
      const issues = errorOutcome(err).issue ?? [];
      setMessage(
        issues
          .map((issue) => issue.details?.text ?? issue.diagnostics ?? '')
          .filter(Boolean)
          .join(' ') || t(formsStrings.notSent),
      );
      setSending(false);
    }
  }

  return (
    <Box sx={{ maxWidth: 760, mx: 'auto', px: { xs: 2, sm: 3 }, py: { xs: 3, sm: 5 } }}>
      <Typography sx={{ mb: 1 }}>
        <ResourceLink to="/forms">{t(formsStrings.back)}</ResourceLink>
      </Typography>
      <PageHeading title={shownTitle} />
      {description && (
        <Typography color="text.secondary" sx={{ mb: 3 }}>
          {description}
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
