// Footer (SPEC §2 "Footer: copyright line with the current year"): the year is read at render time.
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useT } from '../i18n/LocaleProvider';
import { shellStrings } from './strings';

export function Footer() {
  const year = new Date().getFullYear();
  const t = useT();
  return (
    <Box
      component="footer"
      sx={{ borderTop: 1, borderColor: 'divider', bgcolor: 'background.paper', py: 3, px: 2 }}
    >
      <Typography variant="body2" color="text.secondary" align="center">
        {t(shellStrings.footer, { year: String(year) })}
      </Typography>
    </Box>
  );
}
