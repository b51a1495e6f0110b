// One Questionnaire item as a form control: a group as a fieldset (one per instance, with "Add
// another" and "Remove" when it repeats), display as text, boolean as Yes/No radios, choice as
// radios (checkboxes when it repeats), and integer, decimal, string, text and date as labelled
// inputs, with "Add another answer" when the item repeats. Answers are kept by the item's key
// (its scope and linkId), so each instance of a repeating group has its own.
import type { QuestionnaireItem } from '@medplum/fhirtypes';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import InputLabel from '@mui/material/InputLabel';
import OutlinedInput from '@mui/material/OutlinedInput';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { isEnabled } from '../../../fhir/questionnaire/enable-when';
import type { AnswersByLinkId } from '../../../fhir/questionnaire/enable-when';
import type { Message } from '../../i18n/catalog';
import { useT } from '../../i18n/LocaleProvider';
import type { Locale } from '../../i18n/locale';
import { extensionSibling, translatedText } from '../../i18n/translatedText';
import { instanceScope, instancesOf, itemKey } from './answerState';
import type { ChoiceOption, GroupInstances, RawAnswers } from './answerState';
import { formsStrings } from './strings';

export interface ItemContext {
  /** The language the item texts are shown in (the data's translations). */
  locale: Locale;
  raw: RawAnswers;
  instances: GroupInstances;
  /** Messages by item key. */
  errors: Readonly<Record<string, Message>>;
  /** The answers enableWhen reads in a scope. */
  shownAt: (scope: string) => AnswersByLinkId;
  optionsOf: (item: QuestionnaireItem) => readonly ChoiceOption[];
  /** A message when the item's answerValueSet could not be expanded. */
  optionsProblem: (item: QuestionnaireItem) => Message | undefined;
  setRaw: (key: string, values: string[]) => void;
  setInstances: (key: string, ids: string[]) => void;
}

interface ViewProps {
  item: QuestionnaireItem;
  /** The key of the item's place in the form (itemKey). */
  itemKey: string;
  context: ItemContext;
}

/** The item's prefix and text, in the active language when the data translates them. */
function labelOf(item: QuestionnaireItem, locale: Locale): string {
  const prefix = translatedText(extensionSibling(item, 'prefix'), item.prefix, locale);
  const text = translatedText(extensionSibling(item, 'text'), item.text, locale);
  return [prefix, text ?? item.linkId].filter(Boolean).join(' ');
}

const INPUT_TYPES: Partial<
  Record<QuestionnaireItem['type'], { type: string; inputMode?: 'numeric' | 'decimal' }>
> = {
  integer: { type: 'text', inputMode: 'numeric' },
  decimal: { type: 'text', inputMode: 'decimal' },
  string: { type: 'text' },
  text: { type: 'text' },
  date: { type: 'date' },
};

function TextAnswers({ item, itemKey: key, context }: ViewProps) {
  const t = useT();
  const baseId = useId();
  const values = context.raw[key]?.length ? (context.raw[key] as string[]) : [''];
  const error = context.errors[key];
  const input = INPUT_TYPES[item.type] ?? { type: 'text' };
  const label = labelOf(item, context.locale);
  const update = (index: number, value: string) =>
    context.setRaw(
      key,
      values.map((old, at) => (at === index ? value : old)),
    );
  return (
    <Stack spacing={1} sx={{ mb: 2 }}>
      {values.map((value, index) => {
        const id = `${baseId}-${index}`;
        const helperId = error && index === values.length - 1 ? `${id}-error` : undefined;
        const name = values.length > 1 ? t(formsStrings.nthAnswer, { label, n: index + 1 }) : label;
        return (
          <Stack key={id} direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
            <FormControl fullWidth required={item.required} error={Boolean(error)}>
              <InputLabel htmlFor={id} shrink={item.type === 'date' ? true : undefined}>
                {name}
              </InputLabel>
              <OutlinedInput
                id={id}
                label={name}
                notched={item.type === 'date' ? true : undefined}
                type={input.type}
                value={value}
                multiline={item.type === 'text'}
                minRows={item.type === 'text' ? 3 : undefined}
                readOnly={item.readOnly}
                onChange={(event) => update(index, event.target.value)}
                inputProps={{
                  inputMode: input.inputMode,
                  maxLength: item.maxLength,
                  'aria-describedby': helperId,
                }}
              />
              {helperId && error && <FormHelperText id={helperId}>{t(error)}</FormHelperText>}
            </FormControl>
            {index > 0 && (
              <Button
                onClick={() =>
                  context.setRaw(
                    key,
                    values.filter((_, at) => at !== index),
                  )
                }
                aria-label={t(formsStrings.removeNthAnswer, { n: index + 1, label })}
                sx={{ mt: 1 }}
              >
                {t(formsStrings.remove)}
              </Button>
            )}
          </Stack>
        );
      })}
      {item.repeats && (
        <Box>
          <Button
            onClick={() => context.setRaw(key, [...values, ''])}
            aria-label={t(formsStrings.addAnswerTo, { label })}
          >
            {t(formsStrings.addAnswer)}
          </Button>
        </Box>
      )}
    </Stack>
  );
}

function ChoiceAnswers({
  item,
  itemKey: key,
  context,
  options,
}: ViewProps & { options: readonly ChoiceOption[] }) {
  const t = useT();
  const labelId = useId();
  const errorId = useId();
  const error = context.errors[key] ?? context.optionsProblem(item);
  const picked = context.raw[key] ?? [];
  return (
    <FormControl
      component="fieldset"
      required={item.required}
      error={Boolean(error)}
      sx={{ mb: 2, display: 'flex' }}
    >
      <FormLabel component="legend" id={labelId}>
        {labelOf(item, context.locale)}
      </FormLabel>
      {item.type === 'choice' && item.repeats ? (
        <FormGroup aria-describedby={error ? errorId : undefined}>
          {options.map((option) => (
            <FormControlLabel
              key={option.key}
              label={option.label}
              control={
                <Checkbox
                  checked={picked.includes(option.key)}
                  onChange={(event) =>
                    context.setRaw(
                      key,
                      event.target.checked
                        ? [...picked, option.key]
                        : picked.filter((key) => key !== option.key),
                    )
                  }
                />
              }
            />
          ))}
        </FormGroup>
      ) : (
        <RadioGroup
          aria-labelledby={labelId}
          aria-describedby={error ? errorId : undefined}
          value={picked[0] ?? ''}
          onChange={(event) => context.setRaw(key, [event.target.value])}
        >
          {options.map((option) => (
            <FormControlLabel key={option.key} value={option.key} label={option.label} control={<Radio />} />
          ))}
        </RadioGroup>
      )}
      {error && <FormHelperText id={errorId}>{t(error)}</FormHelperText>}
    </FormControl>
  );
}

function yesNo(t: (message: Message) => string): readonly ChoiceOption[] {
  return [
    { key: 'true', label: t(formsStrings.yes), answer: { valueBoolean: true } },
    { key: 'false', label: t(formsStrings.no), answer: { valueBoolean: false } },
  ];
}

const FIELDSET_SX = {
  border: 1,
  borderColor: 'divider',
  borderRadius: 1,
  px: { xs: 1.5, sm: 2 },
  pt: 1,
  pb: 0,
  mx: 0,
  mb: 2,
  minWidth: 0,
} as const;

/** A group: one fieldset per instance; a repeating one adds and removes instances by labelled buttons. */
function GroupView({ item, itemKey: key, context }: ViewProps) {
  const t = useT();
  const error = context.errors[key];
  const label = labelOf(item, context.locale);
  const ids = instancesOf(item, key, context.instances);
  const add = () => {
    const next = String(Math.max(-1, ...ids.map(Number)) + 1);
    context.setInstances(key, [...ids, next]);
  };
  return (
    <>
      {ids.map((id, index) => {
        const scope = instanceScope(item, key, id);
        const name = item.repeats ? `${label} ${index + 1}` : label;
        return (
          <Box key={scope} component="fieldset" sx={FIELDSET_SX}>
            <Typography component="legend" variant="h2" sx={{ fontSize: '1.15rem', px: 0.5 }}>
              {name}
            </Typography>
            {error && index === 0 && (
              <Typography color="error" variant="body2" sx={{ mb: 1 }}>
                {t(error)}
              </Typography>
            )}
            {(item.item ?? []).map((child) => (
              <QuestionnaireItemView key={child.linkId} item={child} scope={scope} context={context} />
            ))}
            {item.repeats && ids.length > 1 && (
              <Box sx={{ mb: 1 }}>
                <Button
                  onClick={() =>
                    context.setInstances(
                      key,
                      ids.filter((other) => other !== id),
                    )
                  }
                  aria-label={t(formsStrings.removeGroup, { name })}
                >
                  {t(formsStrings.remove)}
                </Button>
              </Box>
            )}
          </Box>
        );
      })}
      {item.repeats && (
        <Box sx={{ mb: 2 }}>
          <Button variant="outlined" onClick={add} aria-label={t(formsStrings.addGroupOf, { label })}>
            {t(formsStrings.addGroup)}
          </Button>
        </Box>
      )}
    </>
  );
}

export function QuestionnaireItemView({
  item,
  scope,
  context,
}: {
  item: QuestionnaireItem;
  /** The scope the item sits in: '' at the top, or a group instance's (answerState.instanceScope). */
  scope: string;
  context: ItemContext;
}) {
  const t = useT();
  if (!isEnabled(item, context.shownAt(scope))) {
    return null;
  }
  const props: ViewProps = { item, itemKey: itemKey(scope, item.linkId), context };
  switch (item.type) {
    case 'group':
      return <GroupView {...props} />;
    case 'display':
      return <Typography sx={{ mb: 2 }}>{labelOf(item, context.locale)}</Typography>;
    case 'boolean':
      return <ChoiceAnswers {...props} options={yesNo(t)} />;
    case 'choice':
      return <ChoiceAnswers {...props} options={context.optionsOf(item)} />;
    case 'integer':
    case 'decimal':
    case 'string':
    case 'text':
    case 'date':
      return <TextAnswers {...props} />;
    default:
      return (
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          {t(formsStrings.unsupported, { label: labelOf(item, context.locale) })}
        </Typography>
      );
  }
}
