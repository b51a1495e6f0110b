// A router link to a resource, reference or path (SPEC §2 Links); plain text when there is no target.
import Link from '@mui/material/Link';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { resourceHref, type LinkTarget } from './resourceHref';

export function ResourceLink({ to, children }: { to: LinkTarget; children: ReactNode }) {
  const href = resourceHref(to);
  if (!href) return <>{children}</>;
  return (
    <Link component={RouterLink} to={href}>
      {children}
    </Link>
  );
}
