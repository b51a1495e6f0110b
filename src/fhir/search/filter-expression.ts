// The `_filter` search parameter's expression language (FHIR R4 search_filter.html): parenthesised
// `and` / `or` / `not (…)` over comparisons `path op value`, where the path is a search parameter
// or a chain of them (`subject.name`). Pure syntax: which operators fit which parameter type is the
// server's concern. Errors name `_filter` and the 1-based character where the expression went wrong.
import { badRequest, OperationOutcomeError } from '../outcomes';

/** The comparison operators of the filter grammar. */
export const FILTER_OPERATORS = [
  'eq',
  'ne',
  'co',
  'sw',
  'ew',
  'gt',
  'lt',
  'ge',
  'le',
  'ap',
  'sa',
  'eb',
  'pr',
  'po',
  'ss',
  'sb',
  'in',
  'ni',
  're',
] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

export interface FilterComparison {
  kind: 'compare';
  /** A search parameter code, or a chain of them joined by '.'. */
  path: string;
  operator: FilterOperator;
  value: string;
  /** 1-based character of the comparison's path, for error messages. */
  position: number;
}

export type FilterExpression =
  | FilterComparison
  | { kind: 'not'; operand: FilterExpression }
  | { kind: 'and' | 'or'; operands: FilterExpression[] };

interface Token {
  text: string;
  /** 1-based character where the token starts. */
  position: number;
  quoted: boolean;
}

const PATH = /^[A-Za-z_][A-Za-z0-9_-]*(?:\.[A-Za-z_][A-Za-z0-9_-]*)*$/;

/** A 400 naming `_filter` and where in the expression the problem is. */
export function filterSyntaxError(message: string, position: number): OperationOutcomeError {
  return new OperationOutcomeError(badRequest(`_filter: ${message} at character ${position}`, '_filter'));
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (/\s/.test(c)) {
      i++;
    } else if (c === '(' || c === ')') {
      tokens.push({ text: c, position: i + 1, quoted: false });
      i++;
    } else if (c === '"') {
      // A JSON-style string: \" and \\ (and other backslash pairs) stand for the second character.
      const start = i;
      let value = '';
      i++;
      while (i < text.length && text[i] !== '"') {
        if (text[i] === '\\' && i + 1 < text.length) i++;
        value += text[i];
        i++;
      }
      if (i >= text.length) {
        throw filterSyntaxError('unterminated string', start + 1);
      }
      i++;
      tokens.push({ text: value, position: start + 1, quoted: true });
    } else {
      const start = i;
      while (i < text.length && !/[\s()"]/.test(text[i])) i++;
      tokens.push({ text: text.slice(start, i), position: start + 1, quoted: false });
    }
  }
  return tokens;
}

function isFilterOperator(text: string): text is FilterOperator {
  return (FILTER_OPERATORS as readonly string[]).includes(text);
}

class Parser {
  private index = 0;

  constructor(
    private readonly tokens: Token[],
    private readonly end: number,
  ) {}

  parse(): FilterExpression {
    if (this.tokens.length === 0) {
      throw filterSyntaxError('empty expression', 1);
    }
    const expression = this.parseOr();
    const extra = this.peek();
    if (extra) {
      throw filterSyntaxError(`expected 'and', 'or' or the end, found '${extra.text}'`, extra.position);
    }
    return expression;
  }

  private peek(): Token | undefined {
    return this.tokens[this.index];
  }

  private next(what: string): Token {
    const token = this.tokens[this.index++];
    if (!token) {
      throw filterSyntaxError(`expected ${what}, found the end`, this.end);
    }
    return token;
  }

  private isKeyword(word: string): boolean {
    const token = this.peek();
    return token !== undefined && !token.quoted && token.text.toLowerCase() === word;
  }

  // 'and' binds tighter than 'or', as in FHIRPath; parentheses say otherwise.
  private parseOr(): FilterExpression {
    const operands = [this.parseAnd()];
    while (this.isKeyword('or')) {
      this.index++;
      operands.push(this.parseAnd());
    }
    return operands.length === 1 ? operands[0] : { kind: 'or', operands };
  }

  private parseAnd(): FilterExpression {
    const operands = [this.parseUnary()];
    while (this.isKeyword('and')) {
      this.index++;
      operands.push(this.parseUnary());
    }
    return operands.length === 1 ? operands[0] : { kind: 'and', operands };
  }

  private parseUnary(): FilterExpression {
    if (this.isKeyword('not')) {
      this.index++;
      const open = this.next("'(' after 'not'");
      if (open.text !== '(' || open.quoted) {
        throw filterSyntaxError(`expected '(' after 'not', found '${open.text}'`, open.position);
      }
      return { kind: 'not', operand: this.parseGroup(open) };
    }
    const token = this.peek();
    if (token && token.text === '(' && !token.quoted) {
      this.index++;
      return this.parseGroup(token);
    }
    return this.parseComparison();
  }

  private parseGroup(open: Token): FilterExpression {
    const inner = this.parseOr();
    const close = this.peek();
    if (!close || close.text !== ')' || close.quoted) {
      throw filterSyntaxError(
        `expected ')' closing the '(' at character ${open.position}`,
        close?.position ?? this.end,
      );
    }
    this.index++;
    return inner;
  }

  private parseComparison(): FilterComparison {
    const path = this.next('a search parameter');
    if (path.quoted || !PATH.test(path.text)) {
      const why = path.text.includes('[')
        ? 'filtered paths (param[filter]) are not supported'
        : `expected a search parameter, found '${path.text}'`;
      throw filterSyntaxError(why, path.position);
    }
    const op = this.next('an operator');
    const operator = op.text.toLowerCase();
    if (op.quoted || !isFilterOperator(operator)) {
      throw filterSyntaxError(
        `unknown operator '${op.text}' (expected one of ${FILTER_OPERATORS.join(' ')})`,
        op.position,
      );
    }
    const value = this.next('a value');
    if (!value.quoted && (value.text === '(' || value.text === ')')) {
      throw filterSyntaxError(`expected a value, found '${value.text}'`, value.position);
    }
    return { kind: 'compare', path: path.text, operator, value: value.text, position: path.position };
  }
}

/** Parses a `_filter` value; a malformed one throws a 400 naming `_filter` and the position. */
export function parseFilterExpression(text: string): FilterExpression {
  return new Parser(tokenize(text), text.length + 1).parse();
}

/** Every comparison of an expression, left to right. */
export function filterComparisons(expression: FilterExpression): FilterComparison[] {
  switch (expression.kind) {
    case 'compare':
      return [expression];
    case 'not':
      return filterComparisons(expression.operand);
    default:
      return expression.operands.flatMap(filterComparisons);
  }
}
