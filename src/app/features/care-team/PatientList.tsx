// The care-team home's patient list: one card per patient (a list, not a wide table, so it reads at
// 375 px too), each opening her chart.
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router-dom';
import { DateTimeDisplay } from '../../components/DateTimeDisplay';
import type { PatientRow } from './patientRows';

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Box sx={{ minWidth: 140 }}>
      <Typography component="dt" variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography component="dd" sx={{ m: 0 }}>
        {children}
      </Typography>
    </Box>
  );
}

export function PatientList({ rows }: { rows: readonly PatientRow[] }) {
  return (
    <Box
      component="ul"
      aria-label="Your patients"
      sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 2 }}
    >
      {rows.map((row) => (
        <Paper component="li" key={row.id} variant="outlined" sx={{ p: 2 }}>
          <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mb: 1 }}>
            <Typography component="h3" variant="h6" sx={{ fontSize: '1.15rem' }}>
              <Link component={RouterLink} to={`/patients/${encodeURIComponent(row.id)}`}>
                {row.name}
              </Link>
            </Typography>
            {row.unread > 0 && (
              <Chip
                size="small"
                color="primary"
                label={`${row.unread} unread ${row.unread === 1 ? 'message' : 'messages'}`}
              />
            )}
          </Box>
          <Box component="dl" sx={{ display: 'flex', flexWrap: 'wrap', gap: { xs: 1.5, sm: 3 }, m: 0 }}>
            <Fact label="Pregnancy">{row.week !== undefined ? `Week ${row.week}` : 'Not known'}</Fact>
            <Fact label="Due date">
              {row.dueDate ? <DateTimeDisplay value={row.dueDate} /> : 'Not recorded'}
            </Fact>
            <Fact label="Next appointment">
              {row.nextAppointment ? <DateTimeDisplay value={row.nextAppointment} /> : 'None booked'}
            </Fact>
            <Fact label="Latest critical result">
              {row.critical ? (
                <Box component="span" sx={{ color: 'error.dark', fontWeight: 600 }}>
                  {row.critical.text}
                  {row.critical.date && (
                    <>
                      {' '}
                      (<DateTimeDisplay value={row.critical.date} />)
                    </>
                  )}
                </Box>
              ) : (
                'None'
              )}
            </Fact>
          </Box>
        </Paper>
      ))}
    </Box>
  );
}
