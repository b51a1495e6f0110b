// The signed-in user's stored layout for one type's table (./tableSettings): every type's layout is
// one key-value entry, read once per session and user (not once per table); a store that fails to
// answer leaves the defaults, it never blocks the table.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useBloomClient } from '../../session/BloomClientContext';
import type { BloomClient } from '../../../client';
import { searchTableLayouts, type LayoutHintStore, type TableSettings } from './tableSettings';

export interface TableSettingsState {
  readonly loaded: boolean;
  readonly settings: TableSettings;
  /** Merges into the stored settings and saves them (errors are logged: layout is not worth an alert). */
  readonly update: (change: TableSettings) => void;
}

/** This browser's copy of one user's stored layouts (a private mode or a full quota keeps none). */
function localHints(owner: string): LayoutHintStore {
  const key = `bloom-search-tables-hint:${owner}`;
  return {
    read: () => {
      try {
        return globalThis.localStorage?.getItem(key) ?? undefined;
      } catch {
        return undefined;
      }
    },
    write: (text) => {
      try {
        if (text) globalThis.localStorage?.setItem(key, text);
        else globalThis.localStorage?.removeItem(key);
      } catch {
        // Only a hint: the next session reads the store anyway.
      }
    },
  };
}

/**
 * The signed-in user's layouts: a sign-out and another user's sign-in in this tab start afresh. Before
 * the session check has answered, the stored login names the user (its profile reference).
 */
export function layoutsOf(client: BloomClient) {
  const profile = client.getProfile();
  const owner = profile
    ? `${profile.resourceType}/${profile.id}`
    : (client.getActiveLogin()?.profile?.reference ?? '');
  return searchTableLayouts(client.keyValue, owner, owner ? localHints(owner) : undefined);
}

interface LoadedSettings {
  readonly type: string;
  readonly settings: TableSettings;
}

/** Whether `settings` is what `shown` already holds (the same stored arrays), so nothing re-renders. */
function sameLayout(shown: LoadedSettings, type: string, settings: TableSettings): boolean {
  return (
    shown.type === type &&
    shown.settings.fields === settings.fields &&
    shown.settings.widths === settings.widths
  );
}

export function useTableSettings(resourceType: string): TableSettingsState {
  const client = useBloomClient();
  const [state, setState] = useState<LoadedSettings | undefined>(() => {
    // Read already this session: the first render has the layout, so the grid mounts with its rows.
    const settings = layoutsOf(client).loaded(resourceType);
    return settings ? { type: resourceType, settings } : undefined;
  });
  useEffect(() => {
    let active = true;
    const show = (settings: TableSettings) =>
      active &&
      setState((shown) =>
        shown && sameLayout(shown, resourceType, settings) ? shown : { type: resourceType, settings },
      );
    layoutsOf(client)
      .load(resourceType)
      .then(show, () => show({}));
    return () => {
      active = false;
    };
  }, [client, resourceType]);
  const current = state?.type === resourceType ? state.settings : undefined;
  const latest = useRef<TableSettings>({});
  useEffect(() => {
    latest.current = current ?? {};
  }, [current]);
  const update = useCallback(
    (change: TableSettings) => {
      const merged: TableSettings = { ...latest.current, ...change };
      latest.current = merged;
      setState({ type: resourceType, settings: merged });
      layoutsOf(client)
        .save(resourceType, merged)
        .catch((err: unknown) => console.warn('Saving the table layout failed', err));
    },
    [client, resourceType],
  );
  return { loaded: current !== undefined, settings: current ?? {}, update };
}
