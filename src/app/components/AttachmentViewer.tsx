// Attachment viewer of SPEC §2: image, video or PDF inline (PDF frame height 400, SPEC §9) plus a
// Download link. Inline data (base64) becomes a data: URL.
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import { useT } from '../i18n/LocaleProvider';
import { shellStrings } from './strings';

export const PDF_FRAME_HEIGHT = 400;

export interface AttachmentLike {
  readonly contentType?: string | null;
  readonly url?: string | null;
  readonly data?: string | null;
  readonly title?: string | null;
}

export function attachmentUrl(attachment: AttachmentLike): string | undefined {
  if (attachment.url) return attachment.url;
  if (attachment.data)
    return `data:${attachment.contentType ?? 'application/octet-stream'};base64,${attachment.data}`;
  return undefined;
}

export function AttachmentViewer({ attachment }: { attachment: AttachmentLike }) {
  const t = useT();
  const url = attachmentUrl(attachment);
  if (!url) return null;
  const type = attachment.contentType ?? '';
  const title = attachment.title ?? t(shellStrings.attachment);
  return (
    <Box sx={{ my: 2 }}>
      {type.startsWith('image/') && (
        <Box
          component="img"
          src={url}
          alt={title}
          sx={{ maxWidth: '100%', height: 'auto', display: 'block' }}
        />
      )}
      {type.startsWith('video/') && (
        <Box
          component="video"
          src={url}
          controls
          aria-label={title}
          sx={{ maxWidth: '100%', display: 'block' }}
        />
      )}
      {type === 'application/pdf' && (
        <Box
          component="iframe"
          src={url}
          title={title}
          height={PDF_FRAME_HEIGHT}
          sx={{ width: '100%', height: PDF_FRAME_HEIGHT, border: 1, borderColor: 'divider' }}
        />
      )}
      <Link href={url} download={attachment.title ?? true} sx={{ display: 'inline-block', mt: 1 }}>
        {t(shellStrings.download)}
      </Link>
    </Box>
  );
}
