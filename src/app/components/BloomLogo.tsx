// Bloom's mark: a five-petal blossom. Decorative beside the visible name, so hidden from screen readers.
import SvgIcon, { type SvgIconProps } from '@mui/material/SvgIcon';

export function BloomLogo(props: SvgIconProps) {
  return (
    <SvgIcon viewBox="0 0 32 32" aria-hidden="true" focusable="false" {...props}>
      <g fill="#9b3f63">
        {[0, 72, 144, 216, 288].map((angle) => (
          <ellipse
            key={angle}
            cx="16"
            cy="8.5"
            rx="5"
            ry="7.5"
            opacity="0.85"
            transform={`rotate(${angle} 16 16)`}
          />
        ))}
      </g>
      <circle cx="16" cy="16" r="4.2" fill="#f6d7a7" stroke="#2f5d62" strokeWidth="1.6" />
    </SvgIcon>
  );
}
