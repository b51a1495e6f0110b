// A screen's h1 and its document title ("{title} · Bloom").
import Typography from '@mui/material/Typography';

export function PageHeading({ title }: { title: string }) {
  return (
    <>
      <title>{`${title} · Bloom`}</title>
      <Typography variant="h1" sx={{ fontSize: { xs: '1.6rem', sm: '2rem' }, mb: 2 }}>
        {title}
      </Typography>
    </>
  );
}
