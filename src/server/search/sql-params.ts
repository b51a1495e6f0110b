// Collects bound values while SQL text is built, handing out their $n placeholders.
import type { SqlValue } from '../db';

export class SqlParams {
  readonly values: SqlValue[] = [];

  /** Binds `value` and returns its placeholder. */
  add(value: SqlValue): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}
