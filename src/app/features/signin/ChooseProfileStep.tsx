// Sign-in step 4 (SPEC §2): 'Choose profile', a searchable list of the user's memberships showing at most
// 10, 'Nothing found...' when the search matches none. POST auth/profile {login, profile} (SPEC §7).
import type { ProjectMembership } from '@medplum/fhirtypes';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { JSON_CONTENT_TYPE, type LoginAuthenticationResponse } from '../../../client';
import { useOutcomeForm } from '../../api/useOutcomeForm';
import { ErrorAlert } from '../../components/ErrorAlert';
import { translate } from '../../i18n/i18n';
import { useT } from '../../i18n/LocaleProvider';
import { useBloomClient } from '../../session/BloomClientContext';
import { signinStrings } from './strings';

export const MAX_PROFILES_SHOWN = 10;

function label(membership: ProjectMembership): { primary: string; secondary: string } {
  return {
    primary:
      membership.profile?.display ?? membership.profile?.reference ?? translate(signinStrings.unnamedProfile),
    secondary: membership.project?.display ?? membership.project?.reference ?? '',
  };
}

/** Memberships whose profile or project name contains the search text, first 10. */
export function filterMemberships(
  memberships: readonly ProjectMembership[],
  search: string,
): ProjectMembership[] {
  const needle = search.trim().toLowerCase();
  return memberships
    .filter((m) => {
      const { primary, secondary } = label(m);
      return needle === '' || `${primary} ${secondary}`.toLowerCase().includes(needle);
    })
    .slice(0, MAX_PROFILES_SHOWN);
}

export function ChooseProfileStep({
  login,
  memberships,
  onResponse,
}: {
  readonly login: string;
  readonly memberships: readonly ProjectMembership[];
  readonly onResponse: (response: LoginAuthenticationResponse) => void;
}) {
  const client = useBloomClient();
  const t = useT();
  const [search, setSearch] = useState('');
  const form = useOutcomeForm([] as const);
  const shown = filterMemberships(memberships, search);

  function choose(membership: ProjectMembership) {
    return form.run(async () => {
      onResponse(
        await client.post<LoginAuthenticationResponse>(
          'auth/profile',
          { login, profile: membership.id },
          JSON_CONTENT_TYPE,
        ),
      );
    });
  }

  return (
    <Stack spacing={2}>
      <ErrorAlert message={form.message} />
      <TextField
        id="signin-profile-search"
        type="search"
        placeholder={t(signinStrings.search)}
        slotProps={{ htmlInput: { 'aria-label': t(signinStrings.search) } }}
        fullWidth
        autoFocus
        value={search}
        onChange={(event) => setSearch(event.target.value)}
      />
      {shown.length === 0 ? (
        <Typography color="text.secondary" align="center" sx={{ py: 2 }}>
          {t(signinStrings.nothingFound)}
        </Typography>
      ) : (
        <List
          aria-label={t(signinStrings.profiles)}
          disablePadding
          sx={{ border: 1, borderColor: 'divider', borderRadius: 2 }}
        >
          {shown.map((membership, index) => {
            const { primary, secondary } = label(membership);
            return (
              <ListItemButton
                key={membership.id}
                divider={index < shown.length - 1}
                disabled={form.submitting}
                onClick={() => choose(membership)}
              >
                <ListItemText primary={primary} secondary={secondary} />
              </ListItemButton>
            );
          })}
        </List>
      )}
    </Stack>
  );
}
