import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BillingDetailsRequestSchema,
  billingMessages,
  gstinStateMismatch,
  GST_STATE_OPTIONS,
} from './billing';
import {
  GST_STATE_CODES,
  gstKind,
  gstinCheckCharacter,
  gstinMessages,
  gstinProblem,
  isValidGstin,
  stateLabel,
} from './gst';

// GSTINs published by their holders or by the GST portal as examples
const PUBLISHED_VALID = [
  '27AAPFU0939F1ZV', // the GST portal's own example
  '27AAACR5055K1Z7', // Reliance Industries Ltd, Maharashtra
  '33AACCM9093R1ZP',
  '07AAGFF2194N1Z1',
];

const CODE_POINTS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const letter = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ');
const digit = fc.constantFrom(...'0123456789');
const codePoint = fc.constantFrom(...CODE_POINTS);

/** The first 14 characters of a GSTIN of the right shape, in a State on the list. */
const first14 = fc
  .tuple(
    fc.constantFrom(...GST_STATE_CODES),
    fc.array(letter, { minLength: 5, maxLength: 5 }),
    fc.array(digit, { minLength: 4, maxLength: 4 }),
    letter,
    fc.constantFrom(...'123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'),
  )
  .map(
    ([state, pan, number, last, entity]) =>
      `${state}${pan.join('')}${number.join('')}${last}${entity}Z`,
  );

const validGstin = first14.map((start) => start + gstinCheckCharacter(start));

describe('gstinProblem', () => {
  it.each(PUBLISHED_VALID)('accepts the published GSTIN %s', (gstin) => {
    expect(gstinProblem(gstin)).toBeNull();
  });

  it.each([
    ['27AAPFU0939F1ZW', gstinMessages.checkCharacter],
    ['27AAACR5055K1Z8', gstinMessages.checkCharacter],
    ['33AACCM9093R1ZQ', gstinMessages.checkCharacter],
    // the next two circulate in examples online, and fail their check character
    ['27AABCU9603R1ZM', gstinMessages.checkCharacter],
    ['29AABCT1332L1Z5', gstinMessages.checkCharacter],
    ['25AAPFU0939F1ZV', gstinMessages.state],
    ['27AAPFU0939F0ZV', gstinMessages.format],
    ['27AAPFU0939F1YV', gstinMessages.format],
    ['27aapfu0939f1zv', gstinMessages.format],
    ['27AAPFU0939F1Z', gstinMessages.format],
    ['27AAPFU0939F1ZVX', gstinMessages.format],
    ['2AAAPFU0939F1ZV', gstinMessages.format],
    ['', gstinMessages.format],
  ])('refuses %s: %s', (gstin, message) => {
    expect(gstinProblem(gstin)).toBe(message);
  });

  it('accepts every GSTIN whose last character is its check character', () => {
    fc.assert(fc.property(validGstin, (gstin) => isValidGstin(gstin)));
  });

  it('refuses a GSTIN whose last character is any other', () => {
    fc.assert(
      fc.property(first14, codePoint, (start, last) => {
        fc.pre(last !== gstinCheckCharacter(start));
        return gstinProblem(start + last) === gstinMessages.checkCharacter;
      }),
    );
  });

  it('catches any one character changed among the first 14', () => {
    fc.assert(
      fc.property(validGstin, fc.nat(13), codePoint, (gstin, at, replacement) => {
        fc.pre(gstin[at] !== replacement);
        const changed = gstin.slice(0, at) + replacement + gstin.slice(at + 1);
        return !isValidGstin(changed);
      }),
    );
  });

  it('catches two neighbouring characters swapped', () => {
    fc.assert(
      fc.property(validGstin, fc.nat(12), (gstin, at) => {
        const pair = gstin.slice(at, at + 2);
        // the one pair a Luhn mod 36 cannot tell apart when swapped: 0 and Z weigh the same
        fc.pre(pair[0] !== pair[1] && pair !== '0Z' && pair !== 'Z0');
        const swapped = gstin.slice(0, at) + gstin[at + 1] + gstin[at] + gstin.slice(at + 2);
        return !isValidGstin(swapped);
      }),
    );
  });
});

describe('gstKind', () => {
  it('charges CGST and SGST within the seller State, IGST to any other', () => {
    expect(gstKind('29', '29')).toBe('CGST+SGST');
    expect(gstKind('29', '27')).toBe('IGST');
    fc.assert(
      fc.property(
        fc.constantFrom(...GST_STATE_CODES),
        fc.constantFrom(...GST_STATE_CODES),
        (seller, place) => (gstKind(seller, place) === 'IGST') === (seller !== place),
      ),
    );
  });
});

describe('BillingDetailsRequestSchema', () => {
  const address = {
    gstin: '27AAPFU0939F1ZV',
    addressLine1: 'Office 4, Baner Road',
    city: 'Pune',
    stateCode: '27',
    pin: '411045',
  };

  it('takes a GSTIN in capitals without the spaces around it', () => {
    expect(BillingDetailsRequestSchema.parse({ ...address, gstin: ' 27aapfu0939f1zv ' })).toEqual({
      ...address,
      addressLine2: '',
    });
  });

  it('puts a GSTIN of another State on the GSTIN field, naming both States', () => {
    const result = BillingDetailsRequestSchema.safeParse({ ...address, stateCode: '29' });
    expect(result.error?.issues).toMatchObject([
      { path: ['gstin'], message: gstinStateMismatch('27', '29') },
    ]);
    expect(gstinStateMismatch('27', '29')).toBe(
      'This GSTIN is registered in Maharashtra (27), but the State chosen is Karnataka (29)',
    );
  });

  it('accepts every PIN of six digits that does not start with 0, and no other', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 8 }), (pin) => {
        const ok = BillingDetailsRequestSchema.safeParse({ ...address, pin }).success;
        return ok === /^[1-9]\d{5}$/.test(pin.trim());
      }),
    );
    expect(
      BillingDetailsRequestSchema.safeParse({ ...address, pin: '011045' }).error?.issues,
    ).toMatchObject([{ path: ['pin'], message: billingMessages.pin }]);
  });

  it('lists every State by name and code, in the order of their codes', () => {
    expect(GST_STATE_OPTIONS[0]).toEqual({
      code: '01',
      name: 'Jammu and Kashmir',
      label: 'Jammu and Kashmir (01)',
    });
    expect(GST_STATE_OPTIONS.map((s) => s.code)).toEqual([...GST_STATE_CODES].sort());
    expect(GST_STATE_OPTIONS).toHaveLength(37);
  });

  it('names a code on no State list as unknown, keeping the code, rather than leaving it blank', () => {
    expect(stateLabel('29')).toBe('Karnataka (29)');
    expect(stateLabel('00')).toBe('Unknown state (00)');
  });
});
