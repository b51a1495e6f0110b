// Annotation texts (FHIR note) as a short list under a heading.
import Typography from '@mui/material/Typography';

export function NotesList({
  title = 'Notes',
  notes,
}: {
  title?: string;
  notes: ReadonlyArray<{ readonly text?: string | null } | null> | null | undefined;
}) {
  const texts = (notes ?? []).flatMap((note) => (note?.text ? [note.text] : []));
  if (texts.length === 0) return null;
  return (
    <section aria-label={title}>
      <Typography variant="h2" sx={{ fontSize: '1.2rem', mt: 3, mb: 1 }}>
        {title}
      </Typography>
      {texts.map((text, index) => (
        <Typography key={index} sx={{ mb: 1 }}>
          {text}
        </Typography>
      ))}
    </section>
  );
}
