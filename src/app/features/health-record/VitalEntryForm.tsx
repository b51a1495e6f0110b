// Manual measurement entry (SPEC §2 Vitals; §5 decimal values): one field per series (systolic and
// diastolic for blood pressure), refused in the form with a message when not a number, saved through
// the platform client as a preliminary Observation, which the chart then reads again (a client write
// evicts the Observation lists Apollo holds). Without a network the measurement is kept on the device
// and sent when the network returns (src/app/offline/offlineWrites.ts), listed under the form until then.
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useState, type FormEvent } from 'react';
import { PlainTextField } from '../../components/PlainTextField';
import { QueuedWritesList } from '../../components/QueuedWritesList';
import { useLocale, useT } from '../../i18n/LocaleProvider';
import { useOfflineWrites } from '../../offline/offlineWrites';
import { parseDecimal, vitalObservation } from './vitalObservation';
import { storedValue, vitalUnit } from './vitalDisplay';
import type { VitalType } from './vitalTypes';
import { recordStrings as m } from './strings';
import { seriesName, vitalName } from './vitalNames';

export function VitalEntryForm({ vital, patient }: { vital: VitalType; patient: string }) {
  const { writes, save, dismiss } = useOfflineWrites(`vitals/${vital.code}`);
  const [texts, setTexts] = useState<string[]>(() => vital.series.map(() => ''));
  const [invalid, setInvalid] = useState<boolean[]>(() => vital.series.map(() => false));
  const [saving, setSaving] = useState(false);
  const [message, setMessage] = useState<{ severity: 'success' | 'error'; text: string } | undefined>();
  const t = useT();
  const locale = useLocale();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const values = texts.map((text) => parseDecimal(text, locale));
    const bad = values.map((value) => value === undefined);
    setInvalid(bad);
    if (bad.some(Boolean)) return;
    setSaving(true);
    setMessage(undefined);
    try {
      // Entered in the shown unit (kg or lb for weight), stored in the unit SPEC §3 gives the type.
      const stored = (values as number[]).map((value) => storedValue(value, vital));
      const label = `${t(vitalName(vital))} ${texts.map((text) => text.trim()).join('/')} ${vitalUnit(vital)}`;
      const result = await save(vitalObservation(vital, stored, patient, new Date()), label);
      setTexts(vital.series.map(() => ''));
      setMessage({
        severity: 'success',
        text: result === 'sent' ? t(m.saved) : t(m.kept),
      });
    } catch (err) {
      setMessage({
        severity: 'error',
        text: err instanceof Error ? err.message : t(m.saveFailed),
      });
    } finally {
      setSaving(false);
    }
  }

  return (
    <Box
      component="form"
      noValidate
      onSubmit={(event) => void submit(event)}
      aria-labelledby="vital-entry-heading"
      sx={{ mt: 4 }}
    >
      <Typography id="vital-entry-heading" variant="h2" sx={{ fontSize: '1.2rem', mb: 2 }}>
        {t(m.addMeasurement)}
      </Typography>
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'flex-start' }}>
        {vital.series.map((series, index) => (
          <PlainTextField
            key={series.label}
            label={t(m.seriesUnit, { series: t(seriesName(series)), unit: vitalUnit(vital) })}
            value={texts[index]}
            onChange={(event) =>
              setTexts((prev) => prev.map((text, i) => (i === index ? event.target.value : text)))
            }
            error={invalid[index]}
            helperText={invalid[index] ? t(m.enterNumber) : ' '}
            inputMode="decimal"
            required
          />
        ))}
        <Button type="submit" variant="contained" disabled={saving} sx={{ mt: 1 }}>
          {t(m.save)}
        </Button>
      </Box>
      {message && (
        <Alert
          severity={message.severity}
          role={message.severity === 'error' ? 'alert' : 'status'}
          sx={{ mt: 1 }}
        >
          {message.text}
        </Alert>
      )}
      <QueuedWritesList writes={writes} onDismiss={dismiss} label={t(m.waiting)} />
    </Box>
  );
}
