// Writing to the care team (SPEC §2 messages): a labelled text field (Enter sends,
// Shift+Enter starts a new line), a file to attach, Send. The form refuses an empty message (or one
// too long, or a file too large) with the reason under the field. While a file uploads a progress bar
// shows how far it is; if sending fails, the reason is shown with 'Try again' and the draft stays as
// it was. The draft is cleared only once the message exists.
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { PlainTextField } from '../../components/PlainTextField';
import type { Message } from '../../i18n/catalog';
import { useLocale, useT } from '../../i18n/LocaleProvider';
import { DRAFT_LIMITS, draftProblem, type MessageDraft } from './newMessage';
import { messagesStrings as s } from './strings';
import type { SendState } from './useSendMessage';

/** What the attach button accepts: what the attachment viewer shows inline. */
const ACCEPTED_FILES = 'image/*,video/*,application/pdf';

export interface MessageComposerProps {
  readonly state: SendState;
  readonly onSend: (draft: MessageDraft) => Promise<boolean>;
}

function sizeText(bytes: number, locale: string): string {
  const number = (value: number, digits: number) =>
    value.toLocaleString(locale, { maximumFractionDigits: digits, minimumFractionDigits: digits });
  if (bytes < 1024) return `${number(bytes, 0)} B`;
  if (bytes < 1024 * 1024) return `${number(Math.round(bytes / 1024), 0)} KB`;
  return `${number(bytes / (1024 * 1024), 1)} MB`;
}

export function MessageComposer({ state, onSend }: MessageComposerProps) {
  const [text, setText] = useState('');
  const [file, setFile] = useState<File | undefined>();
  const [problem, setProblem] = useState<Message | undefined>();
  const t = useT();
  const locale = useLocale();
  const fileInput = useRef<HTMLInputElement>(null);
  const textInput = useRef<HTMLInputElement | HTMLTextAreaElement>(null);
  const busy = state.phase === 'uploading' || state.phase === 'sending';

  async function submit(event?: FormEvent) {
    event?.preventDefault();
    if (busy) return;
    const draft = { text, file };
    const found = draftProblem(draft);
    setProblem(found);
    if (found) {
      textInput.current?.focus();
      return;
    }
    if (await onSend(draft)) {
      setText('');
      setFile(undefined);
      if (fileInput.current) fileInput.current.value = '';
    }
  }

  function removeFile() {
    setFile(undefined);
    if (fileInput.current) fileInput.current.value = '';
    if (problem) setProblem(undefined);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement | HTMLTextAreaElement>) {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void submit();
    }
  }

  return (
    <Box
      component="form"
      noValidate
      aria-label={t(s.form)}
      onSubmit={(event) => void submit(event)}
      sx={{ mt: 2, display: 'flex', flexDirection: 'column', gap: 1.5 }}
    >
      <PlainTextField
        inputRef={textInput}
        label={t(s.field)}
        multiline
        minRows={2}
        maxRows={6}
        fullWidth
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          if (problem) setProblem(undefined);
        }}
        onKeyDown={onKeyDown}
        error={problem !== undefined}
        helperText={problem ? t(problem, DRAFT_LIMITS) : t(s.help, DRAFT_LIMITS)}
        readOnly={busy}
        helperRole={problem ? 'alert' : undefined}
      />
      {file && (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', minWidth: 0 }}>
          <Typography variant="body2" sx={{ overflowWrap: 'anywhere', minWidth: 0 }}>
            {t(s.attached, { name: file.name, size: sizeText(file.size, locale) })}
          </Typography>
          <Button
            size="small"
            onClick={removeFile}
            disabled={busy}
            aria-label={t(s.removeFile, { name: file.name })}
          >
            {t(s.remove)}
          </Button>
        </Box>
      )}
      {state.phase === 'uploading' && (
        <Box>
          <LinearProgress
            variant={state.percent === undefined ? 'indeterminate' : 'determinate'}
            value={state.percent}
            aria-label={t(s.uploadingLabel, { name: state.fileName })}
          />
          <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
            {state.percent === undefined
              ? t(s.uploading, { name: state.fileName })
              : t(s.uploadingPercent, { name: state.fileName, percent: state.percent })}
          </Typography>
        </Box>
      )}
      {state.phase === 'failed' && (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void submit()}>
              {t(s.tryAgain)}
            </Button>
          }
        >
          {t(s.notSentDraft, { reason: typeof state.reason === 'string' ? state.reason : t(state.reason) })}
        </Alert>
      )}
      <Box sx={{ display: 'flex', gap: 1, justifyContent: 'flex-end', flexWrap: 'wrap' }}>
        <input
          ref={fileInput}
          type="file"
          accept={ACCEPTED_FILES}
          hidden
          aria-label={t(s.fileInput)}
          onChange={(event) => {
            setFile(event.target.files?.[0] ?? undefined);
            if (problem) setProblem(undefined);
          }}
        />
        <Button variant="outlined" onClick={() => fileInput.current?.click()} disabled={busy}>
          {t(file ? s.attachOther : s.attach)}
        </Button>
        <Button type="submit" variant="contained" disabled={busy}>
          {t(state.phase === 'sending' ? s.sending : s.send)}
        </Button>
      </Box>
    </Box>
  );
}
