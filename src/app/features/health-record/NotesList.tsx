// Annotation texts (FHIR note) as a short list under a heading.
import Typography from '@mui/material/Typography';
import { useT } from '../../i18n/LocaleProvider';
import { recordStrings as m } from './strings';

export function NotesList({
  title,
  notes,
}: {
  title?: string;
  notes: ReadonlyArray<{ readonly text?: string | null } | null> | null | undefined;
}) {
  const t = useT();
  const texts = (notes ?? []).flatMap((note) => (note?.text ? [note.text] : []));
  if (texts.length === 0) return null;
  const heading = title ?? t(m.notes);
  return (
    <section aria-label={heading}>
      <Typography variant="h2" sx={{ fontSize: '1.2rem', mt: 3, mb: 1 }}>
        {heading}
      </Typography>
      {texts.map((text, index) => (
        <Typography key={index} sx={{ mb: 1 }}>
          {text}
        </Typography>
      ))}
    </section>
  );
}
