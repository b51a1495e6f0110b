// One Questionnaire item as a form control: a group as a fieldset, display as text,
// boolean as Yes/No radios, choice as radios (checkboxes when it repeats), and integer, decimal,
// string, text and date as labelled inputs, with "Add another answer" when the item repeats.
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
import type { ChoiceOption, RawAnswers } from './answerState';

export interface ItemContext {
  raw: RawAnswers;
  errors: Readonly<Record<string, string>>;
  shown: AnswersByLinkId;
  optionsOf: (item: QuestionnaireItem) => readonly ChoiceOption[];
  /** A message when the item's answerValueSet could not be expanded. */
  optionsProblem: (item: QuestionnaireItem) => string | undefined;
  setRaw: (linkId: string, values: string[]) => void;
}

function labelOf(item: QuestionnaireItem): string {
  return [item.prefix, item.text ?? item.linkId].filter(Boolean).join(' ');
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

function TextAnswers({ item, context }: { item: QuestionnaireItem; context: ItemContext }) {
  const baseId = useId();
  const values = context.raw[item.linkId]?.length ? (context.raw[item.linkId] as string[]) : [''];
  const error = context.errors[item.linkId];
  const input = INPUT_TYPES[item.type] ?? { type: 'text' };
  const label = labelOf(item);
  const update = (index: number, value: string) =>
    context.setRaw(
      item.linkId,
      values.map((old, at) => (at === index ? value : old)),
    );
  return (
    <Stack spacing={1} sx={{ mb: 2 }}>
      {values.map((value, index) => {
        const id = `${baseId}-${index}`;
        const helperId = error && index === values.length - 1 ? `${id}-error` : undefined;
        const name = values.length > 1 ? `${label} (answer ${index + 1})` : label;
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
              {helperId && <FormHelperText id={helperId}>{error}</FormHelperText>}
            </FormControl>
            {index > 0 && (
              <Button
                onClick={() =>
                  context.setRaw(
                    item.linkId,
                    values.filter((_, at) => at !== index),
                  )
                }
                aria-label={`Remove answer ${index + 1} of ${label}`}
                sx={{ mt: 1 }}
              >
                Remove
              </Button>
            )}
          </Stack>
        );
      })}
      {item.repeats && (
        <Box>
          <Button
            onClick={() => context.setRaw(item.linkId, [...values, ''])}
            aria-label={`Add another answer to ${label}`}
          >
            Add another answer
          </Button>
        </Box>
      )}
    </Stack>
  );
}

function ChoiceAnswers({
  item,
  context,
  options,
}: {
  item: QuestionnaireItem;
  context: ItemContext;
  options: readonly ChoiceOption[];
}) {
  const labelId = useId();
  const errorId = useId();
  const error = context.errors[item.linkId] ?? context.optionsProblem(item);
  const picked = context.raw[item.linkId] ?? [];
  return (
    <FormControl
      component="fieldset"
      required={item.required}
      error={Boolean(error)}
      sx={{ mb: 2, display: 'flex' }}
    >
      <FormLabel component="legend" id={labelId}>
        {labelOf(item)}
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
                      item.linkId,
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
          onChange={(event) => context.setRaw(item.linkId, [event.target.value])}
        >
          {options.map((option) => (
            <FormControlLabel key={option.key} value={option.key} label={option.label} control={<Radio />} />
          ))}
        </RadioGroup>
      )}
      {error && <FormHelperText id={errorId}>{error}</FormHelperText>}
    </FormControl>
  );
}

const YES_NO: readonly ChoiceOption[] = [
  { key: 'true', label: 'Yes', answer: { valueBoolean: true } },
  { key: 'false', label: 'No', answer: { valueBoolean: false } },
];

export function QuestionnaireItemView({ item, context }: { item: QuestionnaireItem; context: ItemContext }) {
  if (!isEnabled(item, context.shown)) {
    return null;
  }
  switch (item.type) {
    case 'group': {
      const error = context.errors[item.linkId];
      return (
        <Box
          component="fieldset"
          sx={{
            border: 1,
            borderColor: 'divider',
            borderRadius: 1,
            px: { xs: 1.5, sm: 2 },
            pt: 1,
            pb: 0,
            mx: 0,
            mb: 2,
            minWidth: 0,
          }}
        >
          <Typography component="legend" variant="h2" sx={{ fontSize: '1.15rem', px: 0.5 }}>
            {labelOf(item)}
          </Typography>
          {error && (
            <Typography color="error" variant="body2" sx={{ mb: 1 }}>
              {error}
            </Typography>
          )}
          {(item.item ?? []).map((child) => (
            <QuestionnaireItemView key={child.linkId} item={child} context={context} />
          ))}
        </Box>
      );
    }
    case 'display':
      return <Typography sx={{ mb: 2 }}>{labelOf(item)}</Typography>;
    case 'boolean':
      return <ChoiceAnswers item={item} context={context} options={YES_NO} />;
    case 'choice':
      return <ChoiceAnswers item={item} context={context} options={context.optionsOf(item)} />;
    case 'integer':
    case 'decimal':
    case 'string':
    case 'text':
    case 'date':
      return <TextAnswers item={item} context={context} />;
    default:
      return (
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          {`${labelOf(item)}: this kind of question cannot be answered here yet.`}
        </Typography>
      );
  }
}
