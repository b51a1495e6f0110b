// A stand-in for a MUI component the grid's default slots import but this table never shows (the
// grid's own filter panel, column manager, pager and toolbar; ours replace them). The build's
// deferred-grid-parts plugin (scripts/deferred-grid-parts.ts) puts it in place of the real import, so
// the component downloads on its first render instead of riding in the table's chunk. It still
// works if the grid ever renders it: its own Suspense keeps the rest of the grid on screen meanwhile.
import { Suspense, type ComponentType, type ReactNode } from 'react';
import { retryableLazy } from '../../components/retryableLazy';

interface StandInProps {
  readonly children?: ReactNode;
}

/**
 * The component `load` resolves to, rendered once downloaded. Until then it renders nothing, or its
 * children when `childrenWhileLoading` (a wrapper such as a badge: what it wraps stays visible).
 */
export function deferredGridPart<P extends StandInProps>(
  load: () => Promise<{ default: ComponentType<P> }>,
  childrenWhileLoading = false,
): ComponentType<P> {
  // retryableLazy keeps the loaded component's type; P only reaches it through the props forwarded.
  const Loaded = retryableLazy(load as () => Promise<{ default: ComponentType<never> }>) as ComponentType<P>;
  function DeferredGridPart(props: P) {
    return (
      <Suspense fallback={childrenWhileLoading ? props.children : null}>
        <Loaded {...props} />
      </Suspense>
    );
  }
  return DeferredGridPart;
}
