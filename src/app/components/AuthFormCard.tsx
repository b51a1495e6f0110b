// The frame of the sign-in and registration forms: a centred card of a fixed maximum width
// (SPEC §2/§9 "login form widths 400 and 450") that shrinks to fit narrow phones.
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { BloomLogo } from './BloomLogo';

export interface AuthFormCardProps {
  readonly title: string;
  readonly subtitle?: string;
  readonly width: 400 | 450;
  readonly children: ReactNode;
}

export function AuthFormCard({ title, subtitle, width, children }: AuthFormCardProps) {
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', px: 2, py: { xs: 4, sm: 8 } }}>
      <Paper variant="outlined" sx={{ width: '100%', maxWidth: width, p: { xs: 3, sm: 4 }, borderRadius: 3 }}>
        <Box sx={{ textAlign: 'center', mb: 3 }}>
          <BloomLogo sx={{ fontSize: 44, mb: 1 }} />
          <Typography variant="h1" sx={{ fontSize: '1.6rem' }}>
            {title}
          </Typography>
          {subtitle && (
            <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
              {subtitle}
            </Typography>
          )}
        </Box>
        {children}
      </Paper>
    </Box>
  );
}
