// A QR code drawn as SVG in the browser (no image request, nothing sent anywhere): the otpauth:// URL of
// the two-factor secret, for an authenticator app to scan. One path of unit squares, crisp at any size.
import Box from '@mui/material/Box';
import { create } from 'qrcode';
import { useMemo } from 'react';

/** The SVG path of the dark modules of `text`'s QR code, and the symbol's size in modules. */
export function qrPath(text: string): { size: number; path: string } {
  const { modules } = create(text, { errorCorrectionLevel: 'M' });
  const parts: string[] = [];
  for (let row = 0; row < modules.size; row++) {
    for (let col = 0; col < modules.size; col++) {
      if (modules.get(row, col)) parts.push(`M${col} ${row}h1v1h-1z`);
    }
  }
  return { size: modules.size, path: parts.join('') };
}

/** Quiet zone around the symbol, in modules (ISO/IEC 18004 asks for 4). */
const QUIET = 4;

export function QrCode({ text, label, size = 200 }: { text: string; label: string; size?: number }) {
  const { size: modules, path } = useMemo(() => qrPath(text), [text]);
  const box = modules + 2 * QUIET;
  return (
    <Box
      component="svg"
      role="img"
      aria-label={label}
      viewBox={`${-QUIET} ${-QUIET} ${box} ${box}`}
      shapeRendering="crispEdges"
      sx={{ width: size, maxWidth: '100%', height: 'auto', display: 'block', bgcolor: '#fff' }}
    >
      <rect x={-QUIET} y={-QUIET} width={box} height={box} fill="#fff" />
      <path d={path} fill="#000" />
    </Box>
  );
}
