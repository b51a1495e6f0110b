// A resource's fields as a description list laid out by its definition: labels from the
// element names, nested (backbone) elements as nested lists, arrays as lists, data types as readable
// text, references as links by SPEC §2 "Links".
import Box from '@mui/material/Box';
import type {
  Address,
  Annotation,
  Attachment,
  CodeableConcept,
  Coding,
  ContactPoint,
  HumanName,
  Identifier,
  Period,
  Quantity,
  Range,
  Ratio,
  Reference,
} from '@medplum/fhirtypes';
import type { ReactNode } from 'react';
import type { TypeSchema } from '../../../client';
import { AttachmentViewer } from '../../components/AttachmentViewer';
import { DateTimeDisplay } from '../../components/DateTimeDisplay';
import { ResourceLink } from '../../components/ResourceLink';
import { fieldsOf, type FieldView } from './elementLayout';
import {
  addressText,
  annotationText,
  codeableConceptText,
  codingText,
  contactPointText,
  formatHumanName,
  identifierText,
  moneyText,
  periodText,
  quantityText,
  rangeText,
  ratioText,
  referenceText,
} from './valueText';

const QUANTITY_TYPES = new Set(['Quantity', 'SimpleQuantity', 'Age', 'Duration', 'Distance', 'Count']);
const DATE_TYPES = new Set(['date', 'dateTime', 'instant']);
const LITERAL_REFERENCE = /^[A-Z][A-Za-z]+\/[A-Za-z0-9\-.]{1,64}(\/_history\/[A-Za-z0-9\-.]{1,64})?$/;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** One value of a data type, readably; unknown complex types as compact JSON. */
function DataTypeValue({ typeCode, value }: { typeCode: string; value: unknown }): ReactNode {
  if (!isObject(value)) {
    if (typeof value === 'boolean') return value ? 'Yes' : 'No';
    if (typeof value === 'string' && DATE_TYPES.has(typeCode)) return <DateTimeDisplay value={value} />;
    return String(value);
  }
  if (QUANTITY_TYPES.has(typeCode)) return quantityText(value as Quantity);
  switch (typeCode) {
    case 'Reference': {
      const reference = value as Reference;
      // Only literal Type/id references are app pages; contained (#id) and absolute ones stay text.
      return LITERAL_REFERENCE.test(reference.reference ?? '') ? (
        <ResourceLink to={reference}>{referenceText(reference)}</ResourceLink>
      ) : (
        referenceText(reference)
      );
    }
    case 'CodeableConcept':
      return codeableConceptText(value as CodeableConcept);
    case 'Coding':
      return codingText(value as Coding);
    case 'Money':
      return moneyText(value);
    case 'Range':
      return rangeText(value as Range);
    case 'Ratio':
      return ratioText(value as Ratio);
    case 'Period':
      return periodText(value as Period);
    case 'HumanName':
      return formatHumanName(value as HumanName) ?? '';
    case 'Address':
      return addressText(value as Address);
    case 'ContactPoint':
      return contactPointText(value as ContactPoint);
    case 'Identifier':
      return identifierText(value as Identifier);
    case 'Annotation':
      return annotationText(value as unknown as Annotation);
    case 'Attachment': {
      const attachment = value as Attachment;
      return (
        <>
          {attachment.title ?? attachment.contentType ?? 'Attachment'}
          <AttachmentViewer attachment={attachment} />
        </>
      );
    }
    default:
      return (
        <Box component="code" sx={{ fontSize: '0.85rem', wordBreak: 'break-word' }}>
          {JSON.stringify(value)}
        </Box>
      );
  }
}

function FieldValues({ schema, field }: { schema: TypeSchema; field: FieldView }) {
  const render = (value: unknown) =>
    field.childPath && isObject(value) ? (
      <ResourceFields schema={schema} path={field.childPath} value={value} nested />
    ) : (
      <DataTypeValue typeCode={field.typeCode} value={value} />
    );
  if (field.values.length === 1) return <>{render(field.values[0])}</>;
  return (
    <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
      {field.values.map((value, index) => (
        <li key={index}>{render(value)}</li>
      ))}
    </Box>
  );
}

export interface ResourceFieldsProps {
  readonly schema: TypeSchema;
  /** Schema path of `value` ('' for the resource itself). */
  readonly path: string;
  readonly value: Readonly<Record<string, unknown>>;
  readonly nested?: boolean;
}

export function ResourceFields({ schema, path, value, nested = false }: ResourceFieldsProps) {
  const fields = fieldsOf(schema, path, value);
  if (fields.length === 0) return nested ? null : <p>No fields to show.</p>;
  return (
    <Box
      component="dl"
      sx={{
        display: 'grid',
        gridTemplateColumns: { xs: '1fr', sm: 'minmax(120px, max-content) minmax(0, 1fr)' },
        columnGap: 3,
        rowGap: nested ? 0.5 : 1,
        my: nested ? 0 : 2,
        ...(nested ? { pl: 1.5, borderLeft: 2, borderColor: 'divider' } : {}),
      }}
    >
      {fields.map((field) => (
        <Box key={field.name} sx={{ display: 'contents' }}>
          <Box component="dt" sx={{ fontWeight: 600, color: 'text.secondary' }}>
            {field.label}
          </Box>
          <Box component="dd" sx={{ m: 0, mb: { xs: 1, sm: 0 }, overflowWrap: 'anywhere' }}>
            <FieldValues schema={schema} field={field} />
          </Box>
        </Box>
      ))}
    </Box>
  );
}
