// forms/responses/{responseId}: one of the patient's answered forms, read-only: when
// she sent it, its status, and each question with her answers (sections as headed groups), in her
// language where the form (read by its canonical) translates them.
import { useQuery } from '@apollo/client/react';
import type {
  Coding,
  QuestionnaireResponse,
  QuestionnaireResponseItem,
  QuestionnaireResponseItemAnswer,
} from '@medplum/fhirtypes';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMemo } from 'react';
import { useParams } from 'react-router-dom';
import { QuestionnaireFormDocument, QuestionnaireResponseDetailDocument } from '../../../graphql';
import { DateTimeDisplay } from '../../components/DateTimeDisplay';
import { LoadError, LoadingState } from '../../components/ListStates';
import { NotFoundPanel } from '../../components/NotFoundPanel';
import { PageHeading } from '../../components/PageHeading';
import { ResourceLink } from '../../components/ResourceLink';
import { StatusBadge } from '../../components/StatusBadge';
import { useLocale, useT, type Translate } from '../../i18n/LocaleProvider';
import { formTexts, type FormTexts } from './formTexts';
import { fromGraphql } from './graphqlResource';
import { questionnaireOf } from './questionnaireResource';
import { formsStrings } from './strings';

/** An answer as words: Yes/No, a coding's display (`codingText`), a quantity with its unit. */
export function answerText(
  answer: QuestionnaireResponseItemAnswer,
  t: Translate,
  codingText: (coding: Coding) => string = (coding) => coding.display ?? coding.code ?? '',
): string {
  if (answer.valueBoolean !== undefined) return t(answer.valueBoolean ? formsStrings.yes : formsStrings.no);
  if (answer.valueCoding) return codingText(answer.valueCoding);
  if (answer.valueQuantity)
    return [answer.valueQuantity.value, answer.valueQuantity.unit].filter((v) => v !== undefined).join(' ');
  if (answer.valueReference) return answer.valueReference.display ?? answer.valueReference.reference ?? '';
  const value =
    answer.valueDecimal ??
    answer.valueInteger ??
    answer.valueDate ??
    answer.valueDateTime ??
    answer.valueTime ??
    answer.valueString ??
    answer.valueUri;
  return value === undefined ? '' : String(value);
}

function AnsweredItems({ items, texts }: { items: readonly QuestionnaireResponseItem[]; texts: FormTexts }) {
  const t = useT();
  return (
    <Box component="dl" sx={{ m: 0 }}>
      {items.map((item, index) =>
        item.item?.length ? (
          <Box key={`${item.linkId}-${index}`} sx={{ mb: 2 }}>
            <Typography component="dt" variant="h2" sx={{ fontSize: '1.15rem', mt: 1 }}>
              {texts.question(item)}
            </Typography>
            <Box component="dd" sx={{ ml: { xs: 1, sm: 2 } }}>
              <AnsweredItems items={item.item} texts={texts} />
            </Box>
          </Box>
        ) : (
          <Box key={`${item.linkId}-${index}`} sx={{ mb: 1.5 }}>
            <Typography component="dt" sx={{ fontWeight: 600 }}>
              {texts.question(item)}
            </Typography>
            <Typography component="dd" sx={{ ml: 0, whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
              {(item.answer ?? [])
                .map((answer) => answerText(answer, t, (coding) => texts.coding(item.linkId, coding)))
                .join(', ') || t(formsStrings.noAnswer)}
            </Typography>
          </Box>
        ),
      )}
    </Box>
  );
}

export function ResponsePage() {
  const t = useT();
  const locale = useLocale();
  const { responseId = '' } = useParams();
  const { data, loading, error, refetch } = useQuery(QuestionnaireResponseDetailDocument, {
    variables: { id: responseId },
  });
  const response = useMemo(
    () =>
      data?.QuestionnaireResponse
        ? fromGraphql<QuestionnaireResponse>(data.QuestionnaireResponse)
        : undefined,
    [data],
  );
  // The form the response answers, for its texts in her language (the stored ones until it comes).
  const canonical = response?.questionnaire?.split('|')[0] ?? '';
  const isReference = canonical.startsWith('Questionnaire/');
  const { data: formData } = useQuery(QuestionnaireFormDocument, {
    variables: {
      search: isReference
        ? `_id=${encodeURIComponent(canonical.slice('Questionnaire/'.length))}`
        : `url=${encodeURIComponent(canonical)}`,
    },
    skip: !canonical,
  });
  const texts = useMemo(() => {
    return formTexts(questionnaireOf(formData?.ResourceSearch.resources), locale);
  }, [formData, locale]);
  if (loading && !data) {
    return <LoadingState label={t(formsStrings.loadingResponse)} />;
  }
  if (error && !data) {
    return error.message === 'Not found' ? (
      <NotFoundPanel />
    ) : (
      <LoadError error={error} onRetry={() => void refetch()} />
    );
  }
  if (!response) {
    return <NotFoundPanel />;
  }
  return (
    <Box sx={{ maxWidth: 760, mx: 'auto', px: { xs: 2, sm: 3 }, py: { xs: 3, sm: 5 } }}>
      <Typography sx={{ mb: 1 }}>
        <ResourceLink to="/forms">{t(formsStrings.back)}</ResourceLink>
      </Typography>
      <PageHeading title={t(formsStrings.yourAnswers)} />
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 3, flexWrap: 'wrap' }}>
        <Typography color="text.secondary">
          {t(formsStrings.sentOn)} <DateTimeDisplay value={response.authored} />
        </Typography>
        {response.status && <StatusBadge status={response.status} kind="form" />}
      </Stack>
      <AnsweredItems items={response.item ?? []} texts={texts} />
    </Box>
  );
}
