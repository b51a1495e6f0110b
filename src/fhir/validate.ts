// Whole-resource structural validation against the indexed StructureDefinitions:
// unknown elements, JSON types, choice types, cardinality, required elements, primitive formats
// (SPEC §5), required terminology bindings of `code` elements (their value sets expanded at build
// time), nested backbone elements and contained/bundled resources. One walk over the JSON, no
// FHIRPath evaluation; constraint (invariant) expressions are out of scope here.
import type { OperationOutcomeIssue, Resource } from '@medplum/fhirtypes';
import {
  getTypeSchema,
  isResourceType,
  type ElementSchema,
  type PropertySchema,
  type RequiredBinding,
  type TypeSchema,
} from './definitions';
import { OperationOutcomeError, validationOutcome } from './outcomes';
import { isPrimitiveType, validatePrimitive } from './primitives';

type IssueCode = 'invalid' | 'structure' | 'required' | 'code-invalid';
type JsonObject = Record<string, unknown>;

/** Deeper nesting than any real resource needs: bounds the recursion on hostile input. */
const MAX_DEPTH = 64;

function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

class ResourceValidator {
  readonly issues: OperationOutcomeIssue[] = [];

  private report(code: IssueCode, expression: string, text: string): void {
    this.issues.push({ severity: 'error', code, details: { text }, expression: [expression] });
  }

  /**
   * A resource at `path` ('' for the top level, else e.g. 'Bundle.entry[0].resource'), checked
   * against the type its own resourceType names. `expectedType` narrows it (e.g. 'OperationOutcome').
   */
  validateResource(value: unknown, path: string, depth: number, expectedType = 'Resource'): void {
    const where = path || 'resourceType';
    if (!isJsonObject(value)) {
      this.report('structure', where, 'Expected a resource object');
      return;
    }
    const resourceType = value.resourceType;
    const typeWhere = path ? `${path}.resourceType` : 'resourceType';
    if (resourceType === undefined) {
      this.report('required', typeWhere, 'Missing resourceType');
      return;
    }
    if (typeof resourceType !== 'string' || !isResourceType(resourceType)) {
      const abstract = typeof resourceType === 'string' && getTypeSchema(resourceType)?.kind === 'resource';
      const text = abstract
        ? `Abstract resource type "${resourceType}" is not allowed`
        : `Unknown resource type "${String(resourceType)}"`;
      this.report('invalid', typeWhere, text);
      return;
    }
    if (expectedType !== 'Resource' && expectedType !== 'DomainResource' && resourceType !== expectedType) {
      this.report('invalid', typeWhere, `Expected resource type "${expectedType}"`);
      return;
    }
    this.validateObject(value, getTypeSchema(resourceType) as TypeSchema, path || resourceType, depth, true);
  }

  private validateObject(
    obj: JsonObject,
    schema: TypeSchema,
    path: string,
    depth: number,
    isResource: boolean,
  ): void {
    if (depth > MAX_DEPTH) {
      this.report('structure', path, 'Too deeply nested');
      return;
    }
    const keys = Object.keys(obj);
    if (keys.length === 0) {
      this.report('structure', path, 'Invalid empty object');
      return;
    }
    const choiceSeen = new Map<ElementSchema, string>();
    const present = new Set<ElementSchema>();
    for (const key of keys) {
      if (isResource && key === 'resourceType') {
        continue;
      }
      if (key.startsWith('_')) {
        const element = this.validateExtensionSibling(obj, key, schema, path, depth);
        if (element) present.add(element);
        continue;
      }
      const property = schema.properties.get(key);
      if (!property) {
        this.report('structure', `${path}.${key}`, `Invalid additional property "${key}"`);
        continue;
      }
      const { element } = property;
      if (element.isChoice) {
        const other = choiceSeen.get(element);
        if (other !== undefined) {
          this.report(
            'structure',
            `${path}.${key}`,
            `Only one of ${other}, ${key} may be present (${element.name})`,
          );
          continue;
        }
        choiceSeen.set(element, key);
      }
      present.add(element);
      this.validateProperty(obj, key, property, `${path}.${key}`, depth);
    }
    for (const element of schema.elements.values()) {
      if (element.min > 0 && !present.has(element)) {
        this.report('required', `${path}.${element.name}`, 'Missing required property');
      }
    }
  }

  private validateProperty(
    obj: JsonObject,
    key: string,
    { element, type }: PropertySchema,
    path: string,
    depth: number,
  ): void {
    const value = obj[key];
    if (!element.isArray) {
      if (Array.isArray(value)) {
        this.report('structure', path, 'Expected single value for property');
        return;
      }
      this.validateValue(value, type.code, path, depth, element.binding);
      return;
    }
    if (!Array.isArray(value)) {
      this.report('structure', path, 'Expected array for property');
      return;
    }
    if (value.length === 0) {
      this.report('structure', path, 'Invalid empty array');
      return;
    }
    if (value.length > element.max) {
      this.report('structure', path, `Expected at most ${element.max} values for property`);
    } else if (value.length < element.min) {
      this.report('structure', path, `Expected at least ${element.min} values for property`);
    }
    // A null primitive array entry is allowed only when its `_key` sibling carries that entry.
    const siblings = obj[`_${key}`];
    value.forEach((item, i) => {
      if (item === null && Array.isArray(siblings) && isJsonObject(siblings[i])) {
        return;
      }
      this.validateValue(item, type.code, `${path}[${i}]`, depth, element.binding);
    });
  }

  private validateValue(
    value: unknown,
    typeCode: string,
    path: string,
    depth: number,
    binding?: RequiredBinding,
  ): void {
    if (value === null || value === undefined) {
      this.report('structure', path, 'Invalid null value');
      return;
    }
    if (isPrimitiveType(typeCode)) {
      const problem = validatePrimitive(typeCode, value);
      if (problem) {
        this.report('invalid', path, problem);
      } else if (binding && !binding.codes.has(value as string)) {
        this.report(
          'code-invalid',
          path,
          `Value ${JSON.stringify(value)} did not satisfy terminology binding ${binding.valueSet}`,
        );
      }
      return;
    }
    if (typeCode === 'Resource' || isResourceType(typeCode)) {
      this.validateResource(value, path, depth + 1, typeCode);
      return;
    }
    const schema = getTypeSchema(typeCode);
    if (!schema) {
      this.report('invalid', path, `Unknown data type: ${typeCode}`);
      return;
    }
    if (!isJsonObject(value)) {
      this.report(
        'structure',
        path,
        `Expected object for property, got ${Array.isArray(value) ? 'array' : typeof value}`,
      );
      return;
    }
    this.validateObject(value, schema, path, depth + 1, false);
  }

  /**
   * `_birthDate` / `_given`: a primitive's id and extensions (FHIR JSON). Returns the primitive's
   * element so that an extension-only value counts as present.
   */
  private validateExtensionSibling(
    obj: JsonObject,
    key: string,
    schema: TypeSchema,
    path: string,
    depth: number,
  ): ElementSchema | undefined {
    const name = key.slice(1);
    const property = schema.properties.get(name);
    if (!property || !isPrimitiveType(property.type.code)) {
      this.report('structure', `${path}.${key}`, `Invalid additional property "${key}"`);
      return undefined;
    }
    const elementPath = `${path}.${name}`;
    const value = obj[key];
    if (!property.element.isArray) {
      if (Array.isArray(value)) {
        this.report('structure', elementPath, 'Expected single value for property');
      } else {
        this.validateValue(value, 'Element', elementPath, depth);
      }
      return property.element;
    }
    if (!Array.isArray(value)) {
      this.report('structure', elementPath, 'Expected array for property');
      return property.element;
    }
    value.forEach((item, i) => {
      if (item !== null) this.validateValue(item, 'Element', `${elementPath}[${i}]`, depth);
    });
    return property.element;
  }
}

/** Every structural problem of a resource as OperationOutcome issues; empty when it is valid. */
export function validateResource(value: unknown): OperationOutcomeIssue[] {
  const validator = new ResourceValidator();
  validator.validateResource(value, '', 0);
  return validator.issues;
}

/** Throws an OperationOutcomeError (400) carrying all issues when the resource is not valid. */
export function assertValidResource(value: unknown): asserts value is Resource {
  const issues = validateResource(value);
  if (issues.length > 0) {
    throw new OperationOutcomeError(validationOutcome(issues));
  }
}
