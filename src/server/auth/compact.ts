// The validator refuses properties present with an undefined value (JSON has no undefined), so
// resources assembled from optional inputs drop those keys before they are written.

export function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
