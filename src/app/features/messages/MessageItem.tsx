// One message of the thread (SPEC §2 messages, §3 Communication): the sender's photo (initials when
// there is none) and name, when it was sent, its category when it is an appointment request, the text
// and each attachment in the shared attachment viewer. The patient's own messages sit on the right.
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { AttachmentViewer } from '../../components/AttachmentViewer';
import { APPOINTMENT_REQUEST_CATEGORY } from '../../../fhir/message-threads';
import { DateTimeDisplay } from '../../components/DateTimeDisplay';
import { messageSender } from './messageSender';
import { useT } from '../../i18n/LocaleProvider';
import { messagesStrings as s } from './strings';
import { messageTime, type ThreadMessage } from './threadMessages';

/** The background of her own messages, also while they wait to be sent. */
export const OWN_BUBBLE = '#e4eeee';

function isAppointmentRequest(message: ThreadMessage): boolean {
  return (message.category ?? []).some((concept) =>
    (concept?.coding ?? []).some(
      (coding) =>
        coding?.system === APPOINTMENT_REQUEST_CATEGORY.system &&
        coding.code === APPOINTMENT_REQUEST_CATEGORY.code,
    ),
  );
}

export function MessageItem({ message, own }: { message: ThreadMessage; own: boolean }) {
  const t = useT();
  const sender = messageSender(message, t(s.careTeam));
  const payload = (message.payload ?? []).flatMap((part) => (part ? [part] : []));
  return (
    <Box
      component="li"
      sx={{
        display: 'flex',
        flexDirection: own ? 'row-reverse' : 'row',
        alignItems: 'flex-start',
        gap: 1.5,
        py: 1,
        // Long threads: the browser skips laying out and painting messages far off screen.
        contentVisibility: 'auto',
        containIntrinsicSize: 'auto 120px',
      }}
    >
      <Avatar src={sender.photoUrl} alt="" sx={{ width: 40, height: 40, bgcolor: 'primary.main' }}>
        <span aria-hidden="true">{sender.initials}</span>
      </Avatar>
      <Box sx={{ minWidth: 0, maxWidth: { xs: 'calc(100% - 52px)', sm: '75%' } }}>
        <Box
          sx={{
            display: 'flex',
            flexWrap: 'wrap',
            columnGap: 1,
            alignItems: 'baseline',
            justifyContent: own ? 'flex-end' : 'flex-start',
          }}
        >
          <Typography component="span" variant="subtitle2">
            {own ? t(s.you, { name: sender.name }) : sender.name}
          </Typography>
          <Typography component="span" variant="caption" color="text.secondary">
            <DateTimeDisplay value={messageTime(message)} />
          </Typography>
        </Box>
        <Box
          sx={{
            mt: 0.5,
            px: 1.5,
            py: 1,
            borderRadius: 2,
            bgcolor: own ? OWN_BUBBLE : 'background.paper',
            border: own ? 0 : 1,
            borderColor: 'divider',
            overflowWrap: 'anywhere',
            '& img': { maxHeight: 320, maxWidth: '100%', width: 'auto' },
          }}
        >
          {isAppointmentRequest(message) && (
            <Typography variant="caption" component="p" sx={{ fontWeight: 600, color: 'secondary.main' }}>
              {t(s.appointmentRequest)}
            </Typography>
          )}
          {payload.map((part, index) =>
            part.contentAttachment ? (
              <AttachmentViewer key={index} attachment={part.contentAttachment} />
            ) : part.contentString ? (
              <Typography key={index} sx={{ whiteSpace: 'pre-wrap' }}>
                {part.contentString}
              </Typography>
            ) : null,
          )}
        </Box>
      </Box>
    </Box>
  );
}
