// Footer (SPEC §2 "Footer: copyright line with the current year"): the year is read at render time.
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';

export function Footer() {
  const year = new Date().getFullYear();
  return (
    <Box
      component="footer"
      sx={{ borderTop: 1, borderColor: 'divider', bgcolor: 'background.paper', py: 3, px: 2 }}
    >
      <Typography variant="body2" color="text.secondary" align="center">
        © {year} Bloom. Pregnancy care, in one place.
      </Typography>
    </Box>
  );
}
