// While the app is open but hidden (another tab, another app in front), new messages from her care team
// and changes to her appointments raise a system notification (noticeRules.ts decides when and what).
// Its own chunk, loaded only for a patient who opted in, so no screen pays for it otherwise. It listens
// through the page's graphql-ws connection: the messages screen's CommunicationChanged (her thread) and
// AppointmentNoticeChanged (her appointments); the server sends a patient only what she may read.
// A click on a notification brings her to the message thread or the appointment.
import { useSubscription } from '@apollo/client/react';
import { useCallback, useEffect, useRef } from 'react';
import { useNavigate } from 'react-router-dom';
import { AppointmentNoticeChangedDocument, CommunicationChangedDocument } from '../../graphql';
import { formatFhirDate } from '../components/DateTimeDisplay';
import { isSwOpenMessage } from '../sw/messages';
import {
  appointmentNotice,
  appointmentState,
  mayNotify,
  messageNotice,
  type NoticePermission,
  type SystemNotice,
} from './noticeRules';
import { showSystemNotice } from './showSystemNotice';

function permission(): NoticePermission {
  return typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;
}

export default function BackgroundNotifier({ patient }: { patient: string }) {
  const navigate = useNavigate();
  const open = useCallback((url: string) => navigate(url), [navigate]);
  const seenMessages = useRef(new Set<string>());
  const appointmentStates = useRef(new Map<string, string>());

  const raise = useCallback(
    (notice: SystemNotice | undefined) => {
      if (!notice) return;
      if (!mayNotify({ optedIn: true, permission: permission(), visibility: document.visibilityState }))
        return;
      void showSystemNotice(notice, open).catch(() => undefined);
    },
    [open],
  );

  useSubscription(CommunicationChangedDocument, {
    variables: { subject: patient },
    onData: ({ data }) => {
      const message = data.data?.CommunicationChanged;
      if (!message?.id || seenMessages.current.has(message.id)) return;
      seenMessages.current.add(message.id);
      raise(messageNotice(message, patient));
    },
  });

  useSubscription(AppointmentNoticeChangedDocument, {
    variables: { patient },
    onData: ({ data }) => {
      const appointment = data.data?.AppointmentChanged;
      if (!appointment?.id) return;
      const previous = appointmentStates.current.get(appointment.id);
      appointmentStates.current.set(appointment.id, appointmentState(appointment, patient));
      raise(appointmentNotice(appointment, patient, previous, (iso) => formatFhirDate(iso)));
    },
  });

  // A click on a notification shown through the service worker: the worker focused this window.
  useEffect(() => {
    const container = typeof navigator !== 'undefined' ? navigator.serviceWorker : undefined;
    if (!container) return undefined;
    const onMessage = (event: MessageEvent) => {
      if (isSwOpenMessage(event.data)) open(event.data.url);
    };
    container.addEventListener('message', onMessage);
    return () => container.removeEventListener('message', onMessage);
  }, [open]);

  return null;
}
