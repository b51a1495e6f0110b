// Dr. Chen's photo: a small hand-written SVG portrait (initials on a soft badge), stored inline as
// Practitioner.photo[0].data so the demo needs no file storage.
import type { Attachment } from '@medplum/fhirtypes';

const PORTRAIT_SVG = [
  '<svg xmlns="http://www.w3.org/2000/svg" width="128" height="128" viewBox="0 0 128 128">',
  '<title>Dr. Lily Chen</title>',
  '<rect width="128" height="128" rx="64" fill="#f3d9e4"/>',
  '<circle cx="64" cy="50" r="24" fill="#8a4f6d"/>',
  '<path d="M20 116c6-26 24-38 44-38s38 12 44 38" fill="#8a4f6d"/>',
  '<text x="64" y="58" text-anchor="middle" font-family="Arial, sans-serif" font-size="20" fill="#ffffff">LC</text>',
  '</svg>',
].join('');

export function buildPortraitAttachment(creation: string): Attachment {
  return {
    contentType: 'image/svg+xml',
    data: btoa(PORTRAIT_SVG),
    title: 'Dr. Lily Chen',
    size: PORTRAIT_SVG.length,
    creation,
  };
}
