// A stand-in for a MUI component the grid's default slots import but the table does not need for its
// first rows. The build's deferred-grid-parts plugin (scripts/deferred-grid-parts.ts) puts it in place
// of the real import, so the component downloads later instead of riding in the table's chunk:
// - parts the table never shows (the grid's own filter panel, column manager, pager and toolbar; ours
//   replace them) download on their first render;
// - parts shown only on hover or in an open menu (tooltips, the column menu's popper and list) wait
//   for the table's first answer and an idle moment after it, then download at once, so they are
//   there by the time a user points at a header or opens a menu.
// It still works if the grid renders a part early: its own Suspense keeps the rest of the grid on
// screen meanwhile.
import { Suspense, useSyncExternalStore, type ComponentType, type ReactNode } from 'react';
import { retryableLazy } from '../../components/retryableLazy';

interface StandInProps {
  readonly children?: ReactNode;
}

/** Whether the table has shown its first answer and the browser has been idle since. */
let answered = false;
let marked = false;
const listeners = new Set<() => void>();
const afterAnswerLoads: (() => Promise<unknown>)[] = [];

/** The longest the parts wait for an idle moment after the first answer (ms). */
const IDLE_TIMEOUT_MS = 3000;

function whenIdle(task: () => void): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(task, { timeout: IDLE_TIMEOUT_MS });
  else setTimeout(task, 0);
}

/**
 * The table's first answer is on screen (rows, none, or its loading ended): once the browser is idle
 * (the grid's rendering of those rows done), the parts that waited start downloading.
 */
export function markTableAnswered(): void {
  if (marked) return;
  marked = true;
  whenIdle(() => {
    answered = true;
    for (const load of afterAnswerLoads) load().catch(() => undefined);
    for (const listener of [...listeners]) listener();
  });
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const isAnswered = () => answered;

/**
 * The component `load` resolves to, rendered once downloaded. Until then it renders nothing, or its
 * children when `childrenWhileLoading` (a wrapper such as a badge or a tooltip: what it wraps stays
 * visible). `afterAnswer`: the download waits for markTableAnswered.
 */
export function deferredGridPart<P extends StandInProps>(
  load: () => Promise<{ default: ComponentType<P> }>,
  childrenWhileLoading = false,
  afterAnswer = false,
): ComponentType<P> {
  // retryableLazy keeps the loaded component's type; P only reaches it through the props forwarded.
  const Loaded = retryableLazy(load as () => Promise<{ default: ComponentType<never> }>) as ComponentType<P>;
  if (afterAnswer) afterAnswerLoads.push(load);
  function DeferredGridPart(props: P) {
    const ready = useSyncExternalStore(subscribe, isAnswered, isAnswered);
    const meanwhile = childrenWhileLoading ? props.children : null;
    if (afterAnswer && !ready) return meanwhile;
    return (
      <Suspense fallback={meanwhile}>
        <Loaded {...props} />
      </Suspense>
    );
  }
  return DeferredGridPart;
}
