// LinkMenu's code (MUI Menu, Popover, Modal, transitions: ~12 KB gzip) is downloaded when a menu is
// first opened, not with every signed-in screen. Once loaded it stays mounted, so
// closing animates and gives the focus back to its button.
import { lazy, Suspense, useState } from 'react';
import type { LinkMenuProps } from './LinkMenu';

const LinkMenu = lazy(() => import('./LinkMenu'));

export function LazyLinkMenu(props: LinkMenuProps) {
  const [opened, setOpened] = useState(false);
  if (props.anchor && !opened) setOpened(true);
  if (!opened) return null;
  return (
    <Suspense fallback={null}>
      <LinkMenu {...props} />
    </Suspense>
  );
}
