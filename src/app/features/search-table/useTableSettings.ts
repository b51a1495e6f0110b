// The signed-in user's stored layout for one type's table (./tableSettings), loaded once per type;
// a store that fails to answer leaves the defaults, it never blocks the table.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useBloomClient } from '../../session/BloomClientContext';
import { loadTableSettings, saveTableSettings, type TableSettings } from './tableSettings';

export interface TableSettingsState {
  readonly loaded: boolean;
  readonly settings: TableSettings;
  /** Merges into the stored settings and saves them (errors are logged: layout is not worth an alert). */
  readonly update: (change: TableSettings) => void;
}

export function useTableSettings(resourceType: string): TableSettingsState {
  const client = useBloomClient();
  const [state, setState] = useState<{ type: string; settings: TableSettings } | undefined>(undefined);
  useEffect(() => {
    let active = true;
    loadTableSettings(client.keyValue, resourceType).then(
      (settings) => active && setState({ type: resourceType, settings }),
      () => active && setState({ type: resourceType, settings: {} }),
    );
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
      saveTableSettings(client.keyValue, resourceType, merged).catch((err: unknown) =>
        console.warn('Saving the table layout failed', err),
      );
    },
    [client, resourceType],
  );
  return { loaded: current !== undefined, settings: current ?? {}, update };
}
