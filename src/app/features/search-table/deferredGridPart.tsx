// A stand-in for a MUI component the grid's default slots import but the table does not need for its
// first rows. The build's deferred-grid-parts plugin (scripts/deferred-grid-parts.ts) puts it in place
// of the real import, so the component downloads later instead of riding in the table's chunk:
// - parts the table never shows (the grid's own filter panel, column manager, pager and toolbar; ours
//   replace them) download on their first render;
// - parts shown only on hover or in an open menu (tooltips, the column menu's popper and list) wait
//   until a pointer or the focus first enters the table, then download at once (loadIntentParts).
// It still works if the grid renders a part early: its own Suspense keeps the rest of the grid on
// screen meanwhile.
import { Suspense, useSyncExternalStore, type ComponentType, type ReactNode } from 'react';
import { retryableLazy } from '../../components/retryableLazy';

interface StandInProps {
  readonly children?: ReactNode;
}

/** Whether a pointer or the focus has entered the table yet. */
let reached = false;
const listeners = new Set<() => void>();
const onIntentLoads: (() => Promise<unknown>)[] = [];

/**
 * A pointer or the keyboard focus entered the table: the parts for hover and menus download now, so
 * they are there by the time a header is pointed at or a menu opened.
 */
export function loadIntentParts(): void {
  if (reached) return;
  reached = true;
  for (const load of onIntentLoads) load().catch(() => undefined);
  for (const listener of [...listeners]) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const isReached = () => reached;

/**
 * The component `load` resolves to, rendered once downloaded. Until then it renders nothing, or its
 * children when `childrenWhileLoading` (a wrapper such as a badge or a tooltip: what it wraps stays
 * visible). `onIntent`: the download waits for loadIntentParts.
 */
export function deferredGridPart<P extends StandInProps>(
  load: () => Promise<{ default: ComponentType<P> }>,
  childrenWhileLoading = false,
  onIntent = false,
): ComponentType<P> {
  // retryableLazy keeps the loaded component's type; P only reaches it through the props forwarded.
  const Loaded = retryableLazy(load as () => Promise<{ default: ComponentType<never> }>) as ComponentType<P>;
  if (onIntent) onIntentLoads.push(load);
  function DeferredGridPart(props: P) {
    const ready = useSyncExternalStore(subscribe, isReached, isReached);
    const meanwhile = childrenWhileLoading ? props.children : null;
    if (onIntent && !ready) return meanwhile;
    return (
      <Suspense fallback={meanwhile}>
        <Loaded {...props} />
      </Suspense>
    );
  }
  return DeferredGridPart;
}
