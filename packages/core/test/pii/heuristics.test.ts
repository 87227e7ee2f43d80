import { describe, expect, it } from 'vitest';
import { findPii } from '../../src/index.ts';
import { entropy, ibanValid, luhnValid } from '../../src/stages/pii/checks.ts';

const found = async (text: string) => (await findPii(text)).map((s) => `${s.entity}:${text.slice(s.start, s.end)}`);

describe('PII heuristics: validated patterns', () => {
  it('checksums hold on known values and fail on one changed digit', () => {
    expect(luhnValid('4111111111111111')).toBe(true);
    expect(luhnValid('4111111111111112')).toBe(false);
    expect(ibanValid('GB82 WEST 1234 5698 7654 32')).toBe(true);
    expect(ibanValid('GB82 WEST 1234 5698 7654 33')).toBe(false);
    expect(ibanValid('DE89370400440532013000')).toBe(true);
    expect(entropy('aaaaaaaa')).toBe(0);
    expect(entropy('a8Xk2Qp9')).toBe(3);
  });
  it('finds emails, phones (with extensions and +country), IMEIs', async () => {
    expect(await found('Write to jane.doe+news@mail.example.co.uk today.')).toEqual([
      'EMAIL:jane.doe+news@mail.example.co.uk',
    ]);
    expect(await found('Call (415) 555-2671 x204 or +44 20 7946 0958.')).toEqual([
      'PHONE:(415) 555-2671 x204',
      'PHONE:+44 20 7946 0958',
    ]);
    expect(await found('Device IMEI 490154203237518 lost.')).toEqual(['PHONE:490154203237518']);
  });
  it('finds cards by Luhn and issuer, IBANs by mod-97, SSN/ITIN by range, accounts by label, wallets', async () => {
    expect(await found('Visa 4111-1111-1111-1111 and Amex 3782 822463 10005.')).toEqual([
      'FINANCIAL:4111-1111-1111-1111',
      'FINANCIAL:3782 822463 10005',
    ]);
    // Luhn-valid but no issuer starts with 9: not a card.
    expect(await found('Ref 9999 9999 9999 9995')).toEqual([]);
    expect(await found('IBAN: DE89 3704 0044 0532 0130 00')).toEqual(['FINANCIAL:DE89 3704 0044 0532 0130 00']);
    expect(await found('SSN 078-05-1120; bad 000-12-3456, 666-12-3456; ITIN 912-70-1234')).toEqual([
      'FINANCIAL:078-05-1120',
      'FINANCIAL:912-70-1234',
    ]);
    expect(await found('Account number: 12345678, routing 021000021')).toEqual([
      'FINANCIAL:12345678',
      'FINANCIAL:021000021',
    ]);
    expect(
      await found('Pay 0x52908400098527886E0F7030069857D2E4169EE7 or bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq'),
    ).toEqual([
      'FINANCIAL:0x52908400098527886E0F7030069857D2E4169EE7',
      'FINANCIAL:bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
    ]);
  });
  it('finds prefixed keys, PEM blocks, JWTs, labelled secrets and document numbers', async () => {
    expect(await found('AWS AKIAIOSFODNN7EXAMPLE and ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789')).toEqual([
      'SECRET:AKIAIOSFODNN7EXAMPLE',
      'SECRET:ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789',
    ]);
    const pem =
      '-----BEGIN RSA PRIVATE KEY-----\nMIIBOgIBAAJBAKj34GkxFhD90vcNLYLInFEX6Ppy1tPf9Cnzj4p4WGeKLs1Pt8Qu\n-----END RSA PRIVATE KEY-----';
    expect(await found(`key:\n${pem}\nend`)).toEqual([`SECRET:${pem}`]);
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U';
    expect(await found(`Authorization: Bearer ${jwt}`)).toEqual([`SECRET:${jwt}`]);
    expect(await found('password: Tr0ub4dor&3, client_secret="Zx9vQ2mL7pR4tY8wK3nB"')).toEqual([
      'SECRET:Tr0ub4dor&3',
      'SECRET:Zx9vQ2mL7pR4tY8wK3nB',
    ]);
    expect(await found("Passport No. X12345678; driver's license number D1234567")).toEqual([
      'SECRET:X12345678',
      'SECRET:D1234567',
    ]);
  });
});

describe('PII heuristics: names and places', () => {
  it('finds people by lexicon, honorific, greeting and signature', async () => {
    expect(await found('Yesterday Maria Garcia met Dr. Okonkwo.')).toEqual(['PERSON:Maria Garcia', 'PERSON:Okonkwo']);
    expect(await found('Dear Priyanka,')).toEqual(['PERSON:Priyanka']);
    expect(await found('Kind regards,\nTobias Lindqvist\nHead of Sales')).toEqual(['PERSON:Tobias Lindqvist']);
  });
  it('finds street addresses, city/state/ZIP, UK postcodes and known places', async () => {
    expect(await found('Ship to 742 Evergreen Terrace, Springfield, IL 62704.')).toEqual([
      'LOCATION:742 Evergreen Terrace, Springfield, IL 62704',
    ]);
    expect(await found('Office: 10 Downing Street, London SW1A 2AA')).toEqual([
      'LOCATION:10 Downing Street',
      'LOCATION:London',
      'LOCATION:SW1A 2AA',
    ]);
    expect(await found('She moved from Berlin to New York.')).toEqual(['LOCATION:Berlin', 'LOCATION:New York']);
  });
  it('leaves dates, order numbers, versions, prices, ISBNs and UUIDs alone', async () => {
    const text =
      'Order #10234567 of 2024-03-15 (15/03/2024) ships with v2.14.3 at $1,234.56; ISBN 978-3-16-148410-0; ' +
      'id 550e8400-e29b-41d4-a716-446655440000; invoice INV-2024-00017; build 20240315.1; tel. extension table 4.';
    expect(await found(text)).toEqual([]);
  });
});

describe('PII heuristics: shapes the tuning set lacks (found with the held-out set)', () => {
  it('reads secrets under longer config keys: snake_case and camelCase', async () => {
    expect(await found('{"db_password": "w9SVf98HnOqv", "smtpPassword": "OuVqYFeOnYWXD"}')).toEqual([
      'SECRET:w9SVf98HnOqv',
      'SECRET:OuVqYFeOnYWXD',
    ]);
    // A word that merely contains a label is no key.
    expect(await found('The compass: 4 points north.')).toEqual([]);
  });
  it('takes national numbers with a trunk 0 next to a phone word, and not without one', async () => {
    expect(await found('Ring our office on 020 7157 2588 today.')).toEqual(['PHONE:020 7157 2588']);
    expect(await found('Batch 020 7157 2588 shipped.')).toEqual([]);
  });
  it('does not carry a CSV column head over to the next line', async () => {
    expect(await found('name,city\nMarcelino Windler,Hickleborough')).toEqual([
      'PERSON:Marcelino Windler',
      'LOCATION:Hickleborough',
    ]);
  });
  it('knows English place shapes and name shapes', async () => {
    expect(await found('We moved from Stratford-upon-Avon to Great Yarmouth.')).toEqual([
      'LOCATION:Stratford-upon-Avon',
      'LOCATION:Great Yarmouth',
    ]);
    expect(await found('Signed by Rusty Y. Towne and Verla McCullough-Kerluke.')).toEqual([
      'PERSON:Rusty Y. Towne',
      'PERSON:Verla McCullough-Kerluke',
    ]);
    expect(await found('Boots Self-Locking Nut. Real-Time Collaboration.')).toEqual([]);
  });
});
