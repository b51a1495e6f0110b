// /:resourceType/new: an input per top-level element with a single primitive
// value, by the type's definition, and a labelled JSON editor for the other fields. Posted with
// POST {type} (SPEC §7); the server validates, and each of its issues shows under the field its
// expression names (SPEC §5, §8). On success the new resource's page opens.
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMemo, useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import type { TypeSchema } from '../../../client';
import { useOutcomeForm } from '../../api/useOutcomeForm';
import { LoadingState } from '../../components/ListStates';
import { NotFoundPanel } from '../../components/NotFoundPanel';
import { fieldErrorProps, OutcomeForm } from '../../components/OutcomeForm';
import { useBloomClient } from '../../session/BloomClientContext';
import { buildResource, inputFieldsOf, JSON_FIELD, refieldError, type InputField } from './newResourceForm';
import { ResourceProblem } from './ResourceProblem';
import { useLoaded } from './useLoaded';
import { useResourceSchema } from './useResourceSchema';

export function NewResourcePage() {
  const { resourceType = '' } = useParams();
  const schema = useResourceSchema(resourceType);
  if (schema.status === 'loading') return <LoadingState label="Loading" />;
  if (schema.status === 'unknown') return <NotFoundPanel what={`The resource type "${resourceType}"`} />;
  if (schema.status === 'error') return <ResourceProblem what={resourceType} error={schema.error} />;
  return <NewResourceForm key={resourceType} resourceType={resourceType} schema={schema.value} />;
}

/** The codes of a required binding (ValueSet/$expand, SPEC §7), or undefined when they cannot be listed. */
function useBoundCodes(valueSet: string | undefined): Array<{ code: string; label: string }> | undefined {
  const client = useBloomClient();
  const expansion = useLoaded(valueSet ?? '', async () => {
    if (!valueSet) return undefined;
    const expanded = await client.valueSetExpand({ url: valueSet, count: MAX_CHOICES + 1 });
    const contains = expanded.expansion?.contains ?? [];
    // Too many to pick from a list, or none: the text input stays (the server still validates).
    if (contains.length === 0 || contains.length > MAX_CHOICES) return undefined;
    return contains
      .filter((concept): concept is typeof concept & { code: string } => !!concept.code)
      .map((concept) => ({ code: concept.code, label: concept.display ?? concept.code }));
  });
  return expansion.status === 'ok' ? expansion.value : undefined;
}

const MAX_CHOICES = 50;

function FieldInput({
  field,
  value,
  error,
  onChange,
}: {
  field: InputField;
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
}) {
  const common = {
    label: field.label,
    value,
    required: field.required,
    fullWidth: true,
    onChange: (event: { target: { value: string } }) => onChange(event.target.value),
    ...fieldErrorProps(error),
  };
  const codes = useBoundCodes(field.valueSet);
  if (codes) {
    return (
      <TextField select {...common}>
        <MenuItem value="">
          <em>Not set</em>
        </MenuItem>
        {codes.map((choice) => (
          <MenuItem key={choice.code} value={choice.code}>
            {choice.label}
          </MenuItem>
        ))}
      </TextField>
    );
  }
  if (field.typeCode === 'boolean') {
    return (
      <TextField select {...common}>
        <MenuItem value="">
          <em>Not set</em>
        </MenuItem>
        <MenuItem value="true">Yes</MenuItem>
        <MenuItem value="false">No</MenuItem>
      </TextField>
    );
  }
  return <TextField {...common} helperText={error ?? field.hint} placeholder={field.hint} />;
}

function NewResourceForm({ resourceType, schema }: { resourceType: string; schema: TypeSchema }) {
  const client = useBloomClient();
  const navigate = useNavigate();
  const fields = useMemo(() => inputFieldsOf(schema), [schema]);
  const inputNames = useMemo(() => new Set(fields.map((field) => field.name)), [fields]);
  const form = useOutcomeForm<string>([...fields.map((field) => field.name), JSON_FIELD]);
  const [values, setValues] = useState<Record<string, string>>({});
  const [json, setJson] = useState('{\n}');
  const built = () => buildResource(resourceType, fields, values, json);

  return (
    <>
      <title>{`New ${resourceType} · Bloom`}</title>
      <Typography variant="h1" sx={{ fontSize: { xs: '1.6rem', sm: '2rem' }, mb: 2 }}>
        {`New ${resourceType}`}
      </Typography>
      <OutcomeForm
        label={`New ${resourceType}`}
        form={form}
        submitLabel="Create"
        validate={() => {
          const result = built();
          return 'problems' in result ? result.problems : {};
        }}
        action={async () => {
          const result = built();
          if (!('resource' in result)) return;
          try {
            const created = await client.createResource(result.resource);
            void navigate(`/${resourceType}/${created.id ?? ''}`);
          } catch (err) {
            throw refieldError(err, resourceType, inputNames);
          }
        }}
      >
        {fields.map((field) => (
          <FieldInput
            key={field.name}
            field={field}
            value={values[field.name] ?? ''}
            error={form.fieldErrors[field.name]}
            onChange={(value) => setValues((prev) => ({ ...prev, [field.name]: value }))}
          />
        ))}
        <TextField
          label="Other fields (JSON)"
          value={json}
          onChange={(event) => setJson(event.target.value)}
          multiline
          minRows={6}
          fullWidth
          {...fieldErrorProps(form.fieldErrors[JSON_FIELD])}
          helperText={
            form.fieldErrors[JSON_FIELD] ??
            `The rest of the ${resourceType} as a JSON object; resourceType is added for you.`
          }
          slotProps={{ htmlInput: { spellCheck: false, style: { fontFamily: 'monospace' } } }}
        />
      </OutcomeForm>
    </>
  );
}
