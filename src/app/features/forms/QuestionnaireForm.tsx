// The questionnaire renderer: draws a FHIR Questionnaire's items, shows or hides them
// by enableWhen as the patient answers, and on submit either lists in plain words what still needs
// an answer or hands the QuestionnaireResponse's items to `onSubmit`.
import type { Coding, Questionnaire, QuestionnaireItem, QuestionnaireResponseItem } from '@medplum/fhirtypes';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useCallback, useMemo, useRef, useState, type FormEvent } from 'react';
import type { Message } from '../../i18n/catalog';
import { useLocale, useT } from '../../i18n/LocaleProvider';
import { extensionSibling, translatedText } from '../../i18n/translatedText';
import { buildResponseItems, choiceOptions } from './answerState';
import type { GroupInstances, RawAnswers } from './answerState';
import { QuestionnaireItemView } from './QuestionnaireItemView';
import type { ItemContext } from './QuestionnaireItemView';
import { formsStrings } from './strings';

/** An answerValueSet's codes once expanded, or the reason they could not be. */
export type ExpandedValueSets = ReadonlyMap<string, readonly Coding[] | { problem: string }>;

export interface QuestionnaireFormProps {
  questionnaire: Questionnaire;
  expanded?: ExpandedValueSets;
  submitting?: boolean;
  /** The server's refusal, shown above the button. */
  message?: string;
  submitLabel?: string;
  onSubmit: (items: QuestionnaireResponseItem[]) => void | Promise<void>;
}

const NO_VALUE_SETS: ExpandedValueSets = new Map();

export function QuestionnaireForm({
  questionnaire,
  expanded = NO_VALUE_SETS,
  submitting = false,
  message,
  submitLabel,
  onSubmit,
}: QuestionnaireFormProps) {
  const t = useT();
  const locale = useLocale();
  const [raw, setRawAnswers] = useState<RawAnswers>({});
  const [instances, setInstanceIds] = useState<GroupInstances>({});
  const [tried, setTried] = useState(false);
  const summary = useRef<HTMLDivElement>(null);
  const items = useMemo(() => questionnaire.item ?? [], [questionnaire]);

  const optionsOf = useCallback(
    (item: QuestionnaireItem) => {
      const codes = item.answerValueSet ? expanded.get(item.answerValueSet) : undefined;
      return choiceOptions(item, Array.isArray(codes) ? codes : [], locale);
    },
    [expanded, locale],
  );
  const optionsProblem = useCallback(
    (item: QuestionnaireItem): Message | undefined => {
      if (item.answerOption?.length || !item.answerValueSet) {
        return undefined;
      }
      const codes = expanded.get(item.answerValueSet);
      if (codes === undefined) {
        return formsStrings.loadingChoices;
      }
      return Array.isArray(codes) ? undefined : formsStrings.choicesFailed;
    },
    [expanded],
  );

  const built = useMemo(
    () => buildResponseItems(items, raw, optionsOf, instances),
    [items, raw, optionsOf, instances],
  );
  const context: ItemContext = {
    locale,
    raw,
    instances,
    // Messages appear once the patient has tried to send, then follow her corrections live.
    errors: tried ? built.errors : {},
    shownAt: (scope) => built.shown.get(scope) ?? new Map(),
    optionsOf,
    optionsProblem,
    setRaw: (key, values) => setRawAnswers((previous) => ({ ...previous, [key]: values })),
    setInstances: (key, ids) => setInstanceIds((previous) => ({ ...previous, [key]: ids })),
  };
  const problems = Object.keys(built.errors).length;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (problems > 0) {
      summary.current?.focus();
      return;
    }
    void onSubmit(built.items);
  };

  return (
    <Box
      component="form"
      noValidate
      onSubmit={submit}
      aria-label={
        translatedText(extensionSibling(questionnaire, 'title'), questionnaire.title, locale) ??
        t(formsStrings.questionnaire)
      }
    >
      {items.map((item) => (
        <QuestionnaireItemView key={item.linkId} item={item} scope="" context={context} />
      ))}
      <div ref={summary} tabIndex={-1}>
        {tried && problems > 0 && (
          <Alert severity="error" sx={{ mb: 2 }}>
            {t(formsStrings.problems, { count: problems })}
          </Alert>
        )}
        {message && (
          <Alert severity="error" sx={{ mb: 2 }}>
            {message}
          </Alert>
        )}
      </div>
      <Button
        type="submit"
        variant="contained"
        disabled={submitting}
        sx={{ width: { xs: '100%', sm: 'auto' } }}
      >
        {submitting ? t(formsStrings.sending) : (submitLabel ?? t(formsStrings.send))}
      </Button>
    </Box>
  );
}
