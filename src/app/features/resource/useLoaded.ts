// The state of one REST read for a screen: loading, the value or the error; a newer request (the
// key changed) wins over a late answer to an older one.
import { useEffect, useState } from 'react';

export type Loaded<T> =
  | { readonly status: 'loading' }
  | { readonly status: 'ok'; readonly value: T }
  | { readonly status: 'error'; readonly error: unknown };

/** Runs `load` whenever `key` changes; `load` itself may change every render. */
export function useLoaded<T>(key: string, load: () => Promise<T>): Loaded<T> {
  const [state, setState] = useState<{ key: string; loaded: Loaded<T> }>({
    key,
    loaded: { status: 'loading' },
  });
  useEffect(() => {
    // Until this answers, the key mismatch below reads as 'loading'.
    let current = true;
    load().then(
      (value) => current && setState({ key, loaded: { status: 'ok', value } }),
      (error: unknown) => current && setState({ key, loaded: { status: 'error', error } }),
    );
    return () => {
      current = false;
    };
    // `load` reads what `key` names.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  return state.key === key ? state.loaded : { status: 'loading' };
}
