import { describe, expect, it } from 'vitest';
import { variantsOf } from '../../src/derive/labels.ts';
import {
  booleanValue,
  enumValue,
  firstDate,
  firstDateTime,
  firstIdentifier,
  numbers,
} from '../../src/derive/values.ts';

const amounts = (s: string) => numbers(s).map((n) => n.value);

describe('typed values in document text', () => {
  it('reads amounts with thousands separators, decimal commas, currency and signs', () => {
    expect(amounts('$1,234.56')).toEqual([1234.56]);
    expect(amounts('€ 1.234,56')).toEqual([1234.56]);
    expect(amounts('12,5 kg')).toEqual([12.5]);
    expect(amounts("CHF 1'250.00")).toEqual([1250]);
    expect(amounts('Rewards Applied -$25.00 and $-50.00 and (75.00)')).toEqual([-25, -50, -75]);
    expect(amounts('USD 99')).toEqual([99]);
    expect(numbers('Discount $-50.00 $299.99').map((n) => [n.value, n.currency])).toEqual([
      [-50, true],
      [299.99, true],
    ]);
    expect(numbers('€5,00 €6,00').map((n) => [n.value, n.currency])).toEqual([
      [5, true],
      [6, true],
    ]);
    expect(numbers('7,00 € and 12 EUR and 5').map((n) => [n.value, n.currency])).toEqual([
      [7, true],
      [12, true],
      [5, false],
    ]);
    expect(numbers('Sales Tax (8.5%) $66.23').map((n) => [n.value, n.percent, n.currency])).toEqual([
      [8.5, true, false],
      [66.23, false, true],
    ]);
  });

  it('does not read parts of words, codes or dates as amounts', () => {
    expect(amounts('USB-C Hub 7-in-1 2TB A-12 SKU-8847')).toEqual([]);
    expect(amounts('12/20/24 and 12/20-12/25')).toEqual([]);
  });

  it('reads dates in the common written forms as ISO 8601', () => {
    expect(firstDate('Report Date: 2024-11-15')?.value).toBe('2024-11-15');
    expect(firstDate('11/23/2024 14:32:18 PST')?.value).toBe('2024-11-23');
    expect(firstDate('due 23/11/2024')?.value).toBe('2024-11-23');
    expect(firstDate('on 15.11.2024')?.value).toBe('2024-11-15');
    expect(firstDate('12/01/24 / 12/10/24')?.value).toBe('2024-12-01');
    expect(firstDate('3 March 2025')?.value).toBe('2025-03-03');
    expect(firstDate('April 2, 2025')?.value).toBe('2025-04-02');
    expect(firstDate('Sept. 9th 2025')?.value).toBe('2025-09-09');
    expect(firstDate('31/02/2024')).toBeUndefined();
    expect(firstDate('version 2.10.3')).toBeUndefined();
    expect(firstDateTime('12/15/2024 2:30 PM')?.value).toBe('2024-12-15T14:30:00');
  });

  it('reads booleans, enums and identifiers', () => {
    expect(booleanValue(': Yes')).toBe(true);
    expect(booleanValue('☐')).toBe(false);
    expect(booleanValue('maybe')).toBeUndefined();
    expect(enumValue('express freight', ['Standard', 'Express freight'])).toBe('Express freight');
    expect(enumValue('Status: CRITICAL', ['OK', 'CRITICAL'])).toBe('CRITICAL');
    expect(enumValue('OK or CRITICAL', ['OK', 'CRITICAL'])).toBeUndefined();
    expect(firstIdentifier(': TXN-98765-2024 Cashier')?.value).toBe('TXN-98765-2024');
    expect(firstIdentifier('(ID: EST-1008)')?.value).toBe('EST-1008');
    expect(firstIdentifier('Policy IM-BATMAN')?.value).toBe('IM-BATMAN');
    expect(firstIdentifier('none given here at all')).toBeUndefined();
  });
});

describe('labels a property goes by', () => {
  it('splits the name, adds prompt synonyms and common synonyms', () => {
    const v = variantsOf('transactionId', undefined, 'The transactionId is printed after "Receipt ref".').map((x) =>
      x.join(' '),
    );
    expect(v[0]).toBe('transaction id');
    expect(v).toEqual(
      expect.arrayContaining(['receipt ref', 'transaction', 'txn', 'transaction #', 'transaction number']),
    );
  });
});
