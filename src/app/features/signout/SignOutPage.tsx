// /signout (SPEC §2): signs out (the server revokes the login), then goes to /. A server that cannot be
// reached does not keep anyone signed in: the client forgets the login either way.
import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router-dom';
import { useNotify } from '../../components/Notifications';
import { translate } from '../../i18n/i18n';
import { useBloomClient } from '../../session/BloomClientContext';
import { SessionLoading } from '../../session/RequireSession';
import { useShareContext } from '../../session/share/ShareContextProvider';
import { signoutStrings } from './strings';

export function SignOutPage() {
  const client = useBloomClient();
  const navigate = useNavigate();
  const notify = useNotify();
  const { leave } = useShareContext();
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    // A session still loading would land after the sign-out and bring the profile back: let it finish first.
    // A shared context is closed while the session can still publish.
    client
      .getProfileAsync()
      .catch(() => undefined)
      .then(() => leave())
      .then(() => client.signOut())
      .then(
        // translate, not useT: the notice is in the language active when the sign-out ends.
        () => notify(translate(signoutStrings.signedOut), 'success'),
        () => notify(translate(signoutStrings.offline), 'warning'),
      )
      .finally(() => navigate('/', { replace: true }));
  }, [client, leave, navigate, notify]);

  return <SessionLoading />;
}
