// Home's pregnancy card when the record has no due date: ask the care team, or enter the first day of
// the last period, which is saved as an Observation the summary then reads to date the pregnancy.
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import Link from '@mui/material/Link';
import OutlinedInput from '@mui/material/OutlinedInput';
import Typography from '@mui/material/Typography';
import { useId, useState, type FormEvent } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { useT } from '../../i18n/LocaleProvider';
import { useBloomClient } from '../../session/BloomClientContext';
import { lastPeriodObservation, lastPeriodProblem } from './lastPeriod';
import { homeStrings as m } from './strings';

export function UnknownDueDateCard({
  patient,
  now,
  onSaved,
}: {
  patient: string;
  now: Date;
  onSaved: () => void;
}) {
  const client = useBloomClient();
  const t = useT();
  const inputId = useId();
  const [value, setValue] = useState('');
  const [problem, setProblem] = useState<string | undefined>();
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | undefined>();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = lastPeriodProblem(value, now);
    setProblem(found && t(found));
    if (found) return;
    setSaving(true);
    setFailure(undefined);
    try {
      await client.createResource(lastPeriodObservation(patient, value, now));
      onSaved();
    } catch (err) {
      setFailure(err instanceof Error ? err.message : t(m.saveFailed));
    } finally {
      setSaving(false);
    }
  }

  return (
    <>
      <Typography sx={{ fontWeight: 600 }}>{t(m.unknownDueDate)}</Typography>
      <Typography variant="body2" sx={{ mb: 2 }}>
        {t(m.unknownDueDateBefore)}{' '}
        <Link component={RouterLink} to="/messages">
          {t(m.unknownDueDateAsk)}
        </Link>
        {t(m.unknownDueDateAfter)}
      </Typography>
      <Box
        component="form"
        noValidate
        onSubmit={(event) => void submit(event)}
        aria-label={t(m.lastPeriodForm)}
      >
        {/* The label stays above: a date input always shows its own day/month/year placeholder. */}
        <FormControl error={!!problem} size="small" fullWidth sx={{ mb: 1 }}>
          <InputLabel htmlFor={inputId} shrink>
            {t(m.lastPeriodLabel)}
          </InputLabel>
          <OutlinedInput
            id={inputId}
            type="date"
            notched
            label={t(m.lastPeriodLabel)}
            value={value}
            onChange={(event) => setValue(event.target.value)}
            inputProps={{ 'aria-describedby': problem ? `${inputId}-problem` : undefined }}
          />
          {problem && <FormHelperText id={`${inputId}-problem`}>{problem}</FormHelperText>}
        </FormControl>
        <Button type="submit" variant="outlined" disabled={saving}>
          {t(m.workOut)}
        </Button>
      </Box>
      {failure && (
        <Alert severity="error" sx={{ mt: 1 }}>
          {failure}
        </Alert>
      )}
    </>
  );
}
