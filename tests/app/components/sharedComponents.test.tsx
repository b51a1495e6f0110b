// Shared components: status badge colours (SPEC §4), resource links (SPEC §2 Links),
// attachment viewer (SPEC §2, §9 PDF frame 400), date display, side menu collapse (SPEC §9 768 px).
import { fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { AttachmentViewer } from '../../../src/app/components/AttachmentViewer';
import { formatFhirDate } from '../../../src/app/components/DateTimeDisplay';
import { resourceHref } from '../../../src/app/components/resourceHref';
import { SideMenu } from '../../../src/app/components/SideMenu';
import { StatusBadge } from '../../../src/app/components/StatusBadge';
import { statusColor } from '../../../src/app/components/statusColors';
import { isCritical } from '../../../src/app/features/health-record/interpretation';
import { rangeText } from '../../../src/app/features/health-record/observationValues';

describe('SPEC §4 status badge colours', () => {
  it.each([
    [
      'blue',
      [
        'draft',
        'active',
        'registered',
        'preliminary',
        'requested',
        'received',
        'accepted',
        'ready',
        'in-progress',
        'proposed',
        'pending',
        'booked',
        'arrived',
        'checked-in',
      ],
    ],
    ['yellow', ['on-hold', 'amended', 'corrected']],
    ['green', ['completed', 'final', 'fulfilled', 'connected']],
    [
      'red',
      [
        'revoked',
        'entered-in-error',
        'cancelled',
        'rejected',
        'failed',
        'noshow',
        'not-done',
        'disconnected',
        'urgent',
        'asap',
        'stat',
      ],
    ],
    ['gray', ['unknown', 'retired', 'waitlist', 'routine']],
  ])('%s: %j', (color, statuses) => {
    for (const status of statuses) expect(statusColor(status)).toBe(color);
  });

  it('an unlisted or differently cased status is gray', () => {
    expect(statusColor('whatever')).toBe('gray');
    expect(statusColor('FINAL')).toBe('gray');
    expect(statusColor('')).toBe('gray');
  });

  it('the badge shows the status in words with its colour, the code kept in data-status', () => {
    render(<StatusBadge status="cancelled" />);
    expect(screen.getByText('Cancelled')).toHaveAttribute('data-color', 'red');
    expect(screen.getByText('Cancelled')).toHaveAttribute('data-status', 'cancelled');
  });
});

describe('SPEC §2 Links', () => {
  it('a resource links to /{resourceType}/{id}', () => {
    expect(resourceHref({ resourceType: 'Observation', id: 'o1' })).toBe('/Observation/o1');
  });
  it('a reference links to /{reference}', () => {
    expect(resourceHref({ reference: 'Patient/p1' })).toBe('/Patient/p1');
  });
  it('a plain string is used as given, with a leading slash added if missing', () => {
    expect(resourceHref('messages')).toBe('/messages');
    expect(resourceHref('/messages')).toBe('/messages');
  });
  it('no id or no reference: no link', () => {
    expect(resourceHref({ resourceType: 'Observation', id: null })).toBeUndefined();
    expect(resourceHref({ reference: null })).toBeUndefined();
    expect(resourceHref({ reference: '' })).toBeUndefined();
  });
});

describe('SPEC §2 attachment viewer', () => {
  it('PDF inline in a frame of height 400 with a Download link', () => {
    render(
      <AttachmentViewer
        attachment={{ contentType: 'application/pdf', url: 'https://x.test/a.pdf', title: 'a.pdf' }}
      />,
    );
    const frame = screen.getByTitle('a.pdf');
    expect(frame.tagName).toBe('IFRAME');
    expect(frame).toHaveAttribute('height', '400');
    expect(screen.getByRole('link', { name: 'Download' })).toHaveAttribute('href', 'https://x.test/a.pdf');
  });
  it('an image with its title as text alternative', () => {
    render(
      <AttachmentViewer
        attachment={{ contentType: 'image/png', url: 'https://x.test/p.png', title: 'Ultrasound' }}
      />,
    );
    expect(screen.getByRole('img', { name: 'Ultrasound' })).toHaveAttribute('src', 'https://x.test/p.png');
  });
  it('a video with controls', () => {
    const { container } = render(
      <AttachmentViewer attachment={{ contentType: 'video/mp4', url: 'https://x.test/v.mp4' }} />,
    );
    expect(container.querySelector('video')).toHaveAttribute('controls');
  });
  it('inline data becomes a data: URL', () => {
    render(<AttachmentViewer attachment={{ contentType: 'text/plain', data: 'aGk=' }} />);
    expect(screen.getByRole('link', { name: 'Download' })).toHaveAttribute(
      'href',
      'data:text/plain;base64,aGk=',
    );
  });
  it('nothing to show without url or data', () => {
    const { container } = render(<AttachmentViewer attachment={{ contentType: 'application/pdf' }} />);
    expect(container).toBeEmptyDOMElement();
  });
});

describe('date display', () => {
  it('a bare date keeps its day in every time zone', () => {
    expect(formatFhirDate('2026-03-02', 'en-US')).toBe('Mar 2, 2026');
    expect(formatFhirDate('2026', 'en-US')).toBe('2026');
  });
  it('an unparseable value is shown as given', () => {
    expect(formatFhirDate('not a date', 'en-US')).toBe('not a date');
  });
});

describe('SPEC §9 critical interpretation codes AA, LL, HH, A', () => {
  it.each(['AA', 'LL', 'HH', 'A'])('%s is critical', (code) => {
    expect(isCritical([{ coding: [{ code }] }])).toBe(true);
  });
  it.each(['H', 'L', 'N', 'a', ''])('%j is not', (code) => {
    expect(isCritical([{ coding: [{ code }] }])).toBe(false);
  });
  it('no interpretation is not critical', () => {
    expect(isCritical(null)).toBe(false);
    expect(isCritical([null, { text: 'High' }])).toBe(false);
  });
});

describe('reference range text', () => {
  it('low – high, one bound, or the text', () => {
    expect(rangeText({ low: { value: 1, unit: 'g' }, high: { value: 2, unit: 'g' } })).toBe('1 g – 2 g');
    expect(rangeText({ low: { value: 1 } })).toBe('≥ 1');
    expect(rangeText({ high: { value: 2 } })).toBe('≤ 2');
    expect(rangeText({ text: 'Negative', low: { value: 1 } })).toBe('Negative');
    expect(rangeText(null)).toBe('');
  });
});

describe('side menu below 768 px (SPEC §9)', () => {
  it('collapses behind a button that shows the links', () => {
    render(
      <MemoryRouter>
        <SideMenu
          label="Health Record"
          items={[{ label: 'Lab Results', to: '/health-record/lab-results' }]}
        />
      </MemoryRouter>,
    );
    expect(screen.queryByRole('link', { name: 'Lab Results' })).not.toBeInTheDocument();
    const toggle = screen.getByRole('button', { name: 'Health Record menu' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    fireEvent.click(toggle);
    expect(screen.getByRole('link', { name: 'Lab Results' })).toHaveAttribute(
      'href',
      '/health-record/lab-results',
    );
    expect(screen.getByRole('button', { name: 'Hide Health Record menu' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
  });
});
