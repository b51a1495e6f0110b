// Context sharing for the whole signed-in app: offered to clinicians (a Practitioner
// profile), on or off per user in the key-value store (SPEC §7 keyvalue/v1, so the choice follows the
// user across browsers and sign-outs), connected to the user's own topic (userTopic) while on.
// Mounted around every route, so an open from another app brings the clinician to it from any screen;
// pages announce what they show with useSharedView. Turning it off, signing out (leave) and the tab
// going away (pagehide) close what this window has open.
import type { Resource } from '@medplum/fhirtypes';
import { createContext, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useLoadedBloomClient, useSession } from '../BloomClientContext';
import { ContextSharing, userTopic, type FhircastApi, type SharingStatus } from './contextSharing';

/** The key-value entry holding 'on' or 'off' (a key Medplum's key-value API accepts). */
export const SHARE_CONTEXT_SETTING = 'bloom-share-context';

export interface ShareContextState {
  /** Whether this user may share (a clinician) and the stored choice has been read. */
  readonly available: boolean;
  readonly enabled: boolean;
  setEnabled(on: boolean): void;
  /** The connection while on; a problem saving the choice otherwise. */
  readonly status: SharingStatus | undefined;
  readonly settingProblem: string | undefined;
  readonly sharing: ContextSharing | undefined;
  /** Closes what this window has open and leaves the topic; resolves when the hub has answered. */
  leave(): Promise<void>;
}

const unavailable: ShareContextState = {
  available: false,
  enabled: false,
  setEnabled: () => undefined,
  status: undefined,
  settingProblem: undefined,
  sharing: undefined,
  leave: () => Promise.resolve(),
};

/** A hub that does not answer holds a sign-out up no longer than this. */
const LEAVE_LIMIT_MS = 3000;

function withinLimit(promise: Promise<void>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    void promise.finally(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

const ShareContext = createContext<ShareContextState>(unavailable);

export function useShareContext(): ShareContextState {
  return useContext(ShareContext);
}

export interface ShareContextProviderProps {
  readonly children: ReactNode;
  /** The hub calls; the signed-in platform client unless a test gives a fake. */
  readonly api?: FhircastApi;
}

export function ShareContextProvider({ children, api }: ShareContextProviderProps) {
  // Not useBloomClient: that would suspend every route, and load the client on the landing page.
  const client = useLoadedBloomClient();
  const { profile } = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const pathRef = useRef(location.pathname);
  // Outside the router's data layer, navigate changes with every location: the connection below follows
  // through a ref, so moving between screens does not stop and restart it.
  const navigateRef = useRef(navigate);
  useEffect(() => {
    pathRef.current = location.pathname;
    navigateRef.current = navigate;
  }, [location.pathname, navigate]);
  const clinician = client && profile?.resourceType === 'Practitioner' ? profile : undefined;
  const topic = clinician ? userTopic(clinician) : undefined;

  const [setting, setSetting] = useState<{ topic: string; enabled: boolean }>();
  const [settingProblem, setSettingProblem] = useState<string>();
  const [status, setStatus] = useState<SharingStatus>();
  const [sharing, setSharing] = useState<ContextSharing>();

  // The stored choice, read again for each user.
  useEffect(() => {
    if (!topic || !client) return;
    let current = true;
    client.keyValue.get(SHARE_CONTEXT_SETTING).then(
      (value) => current && setSetting({ topic, enabled: value === 'on' }),
      () => {
        if (!current) return;
        setSetting({ topic, enabled: false });
        setSettingProblem('Could not read the sharing setting');
      },
    );
    return () => {
      current = false;
    };
  }, [client, topic]);

  const enabled = !!topic && setting?.topic === topic && setting.enabled;

  useEffect(() => {
    if (!enabled || !topic || !client) return;
    const connection = new ContextSharing(api ?? client, topic, {
      follow: (path) => {
        if (pathRef.current !== path) void navigateRef.current(path);
      },
      status: setStatus,
    });
    connection.start();
    setSharing(connection);
    // pagehide (not unload): it also fires for pages going into the back/forward cache.
    const hidden = () => connection.pageHidden();
    const shown = (event: PageTransitionEvent) => event.persisted && connection.pageShown();
    window.addEventListener('pagehide', hidden);
    window.addEventListener('pageshow', shown);
    return () => {
      window.removeEventListener('pagehide', hidden);
      window.removeEventListener('pageshow', shown);
      void connection.stop();
      setSharing(undefined);
      setStatus(undefined);
    };
  }, [api, client, enabled, topic]);

  const value = useMemo<ShareContextState>(() => {
    if (!topic || !client || setting?.topic !== topic) return unavailable;
    return {
      available: true,
      enabled,
      setEnabled: (on: boolean) => {
        setSetting({ topic, enabled: on });
        setSettingProblem(undefined);
        client.keyValue
          .set(SHARE_CONTEXT_SETTING, on ? 'on' : 'off')
          .catch(() => setSettingProblem('Could not save the sharing setting'));
      },
      status,
      settingProblem,
      sharing,
      leave: () => (sharing ? withinLimit(sharing.stop(), LEAVE_LIMIT_MS) : Promise.resolve()),
    };
  }, [client, enabled, setting, settingProblem, sharing, status, topic]);

  return <ShareContext.Provider value={value}>{children}</ShareContext.Provider>;
}

/** Announces `resource` while it is on screen (nothing when sharing is off or it is not shareable). */
export function useSharedView(resource: Resource | undefined): void {
  const { sharing } = useShareContext();
  const resourceRef = useRef(resource);
  // Runs before the effect below (effects run in order): it always sees the latest resource.
  useEffect(() => {
    resourceRef.current = resource;
  });
  const key = resource ? `${resource.resourceType}/${resource.id ?? ''}` : undefined;
  useEffect(() => {
    const shown = resourceRef.current;
    if (!sharing || !key || !shown) return;
    return sharing.view(shown);
  }, [sharing, key]);
}
