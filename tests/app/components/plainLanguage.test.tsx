// Plain language on the patient screens: statuses in words with one colour meaning everywhere, units in
// printed form and weights in the reader's unit. The mapping is shared (src/app/components), so
// every screen's badge and value goes through these functions.
import { render, screen } from '@testing-library/react';
import { StatusBadge } from '../../../src/app/components/StatusBadge';
import {
  convertWeight,
  humanUnit,
  humanUnitsInText,
  localQuantity,
  weightUnitFor,
} from '../../../src/app/components/plainUnits';
import { patientStatus } from '../../../src/app/components/statusWords';
import { quantityText, rangeText } from '../../../src/app/features/health-record/observationValues';

/** Status codes of the FHIR value sets the patient screens show (SPEC §4 and the demo's records). */
const CODES = [
  'final',
  'active',
  'completed',
  'booked',
  'fulfilled',
  'not-done',
  'cancelled',
  'entered-in-error',
  'preliminary',
  'amended',
  'in-progress',
  'pending',
  'proposed',
  'noshow',
  'on-hold',
  'stopped',
  'registered',
  'unknown',
] as const;
const KINDS = [undefined, 'vaccine', 'appointment', 'result', 'medication', 'form'] as const;

describe('statuses in words a patient uses', () => {
  it('no status code is ever shown as itself, for any kind of record', () => {
    for (const kind of KINDS) {
      for (const code of CODES) {
        const { text } = patientStatus(code, { kind });
        expect(text).not.toBe(code);
        expect(text).not.toMatch(/-/);
        expect(text.charAt(0)).toBe(text.charAt(0).toUpperCase());
      }
    }
  });

  it('reads each code by what it describes', () => {
    expect(patientStatus('completed', { kind: 'vaccine' }).text).toBe('Given');
    expect(patientStatus('booked', { kind: 'appointment' }).text).toBe('Confirmed');
    expect(patientStatus('fulfilled', { kind: 'appointment' }).text).toBe('Attended');
    expect(patientStatus('final', { kind: 'result' }).text).toBe('Final result');
    expect(patientStatus('completed', { kind: 'form' }).text).toBe('Submitted');
    expect(patientStatus('entered-in-error').text).toBe('Recorded in error');
  });

  it('an unlisted code still reads as words, in gray', () => {
    expect(patientStatus('some-new_code')).toEqual({ text: 'Some new code', color: 'gray' });
  });

  it('colour means the same thing everywhere: an upcoming vaccine is a blue "Due", not a red "not-done"', () => {
    expect(patientStatus('not-done', { kind: 'vaccine', upcoming: true })).toEqual({
      text: 'Due',
      color: 'blue',
    });
    expect(patientStatus('not-done', { kind: 'vaccine' })).toEqual({ text: 'Not given', color: 'red' });
    // Done is green, planned is blue, whichever record it is.
    for (const kind of KINDS) {
      expect(patientStatus('completed', { kind }).color).toBe('green');
      expect(patientStatus('booked', { kind }).color).toBe('blue');
    }
    render(<StatusBadge status="not-done" kind="vaccine" upcoming />);
    expect(screen.getByText('Due')).toHaveAttribute('data-color', 'blue');
  });
});

describe('units in printed form', () => {
  it.each([
    ['mm[Hg]', 'mmHg'],
    ['10*3/uL', '×10³/µL'],
    ['10*6/uL', '×10⁶/µL'],
    ['ug/L', 'µg/L'],
    ['[IU]/mL', 'IU/mL'],
    ['Cel', '°C'],
    ['/min', 'beats/min'],
    ['g/dL', 'g/dL'],
    ['%', '%'],
  ])('%s reads %s', (code, printed) => {
    expect(humanUnit(code)).toBe(printed);
  });

  it('a reference range text with a UCUM unit in it is printed too', () => {
    expect(humanUnitsInText('4.5-13.0 10*3/uL (pregnancy)')).toBe('4.5-13.0 ×10³/µL (pregnancy)');
    expect(rangeText({ text: '4.5-13.0 10*3/uL (pregnancy)' })).toBe('4.5-13.0 ×10³/µL (pregnancy)');
    expect(quantityText({ value: 118, unit: 'mm[Hg]' })).toBe('118 mmHg');
  });
});

describe('weight in the unit of the reader’s locale', () => {
  it('pounds where people weigh in pounds, kilograms elsewhere', () => {
    expect(weightUnitFor('en-US')).toBe('lb');
    expect(weightUnitFor('en')).toBe('lb');
    expect(weightUnitFor('en-GB')).toBe('kg');
    expect(weightUnitFor('de-DE')).toBe('kg');
    expect(weightUnitFor('es-MX')).toBe('kg');
  });

  it('converts to one decimal and leaves other quantities alone', () => {
    expect(convertWeight(150, 'lb', 'kg')).toBe(68);
    expect(convertWeight(68, 'kg', 'lb')).toBe(149.9);
    expect(localQuantity(150, 'lbs', 'en-GB')).toEqual({ value: 68, unit: 'kg' });
    expect(localQuantity(150, '[lb_av]', 'en-US')).toEqual({ value: 150, unit: 'lb' });
    expect(localQuantity(120, 'mm[Hg]', 'en-GB')).toEqual({ value: 120, unit: 'mmHg' });
  });
});
