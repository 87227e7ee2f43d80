import type { PiiEntity } from '@docmill/core';

/** Model label (without its B-/I- prefix) → bucket; `null` means "not PII, keep". */
export type LabelMap = Record<string, PiiEntity | null>;

const group = (entity: PiiEntity | null, labels: string): LabelMap =>
  Object.fromEntries(labels.split(' ').map((l) => [l, entity]));

/**
 * Defaults for CoNLL-2003 exports (PER, LOC, ORG, MISC) and the label sets common PII models use
 * (given/family names, street/city/zip, phone, card/IBAN/account, password, licence/passport).
 * Keys are compared upper-cased with everything but letters and digits removed.
 */
export const DEFAULT_LABELS: LabelMap = {
  ...group(
    'PERSON',
    'PER PERSON NAME FULLNAME FIRSTNAME LASTNAME MIDDLENAME GIVENNAME GIVENNAME1 GIVENNAME2 SURNAME FAMILYNAME PATIENT DOCTOR NAMESTUDENT',
  ),
  ...group(
    'LOCATION',
    'LOC LOCATION GPE ADDRESS STREET STREETADDRESS STREETNAME BUILDINGNUMBER SECONDARYADDRESS CITY STATE COUNTY COUNTRY ZIP ZIPCODE POSTCODE POSTALCODE NEARBYGPSCOORDINATE GPS',
  ),
  ...group('EMAIL', 'EMAIL EMAILADDRESS MAIL'),
  ...group('PHONE', 'PHONE PHONENUMBER PHONENUM TELEPHONE TELEPHONENUM MOBILE FAX IMEI'),
  ...group(
    'FINANCIAL',
    'CREDITCARD CREDITCARDNUMBER CREDITCARDNUM CARDNUMBER IBAN BIC SWIFT ACCOUNTNUMBER ACCOUNTNUM BANKACCOUNT ROUTINGNUMBER SSN SOCIALNUM SOCIALSECURITYNUMBER TAXNUM ITIN BITCOINADDRESS ETHEREUMADDRESS LITECOINADDRESS CRYPTOADDRESS',
  ),
  ...group(
    'SECRET',
    'PASSWORD PIN APIKEY SECRET TOKEN DRIVERLICENSE DRIVERLICENSENUM DRIVERSLICENSE PASSPORT PASSPORTNUM PASSPORTNUMBER IDCARD IDCARDNUM IDNUM MEDICALLICENSE',
  ),
  ...group(null, 'O ORG ORGANIZATION MISC DATE TIME'),
};

export const normalizeLabel = (label: string): string => label.toUpperCase().replace(/[^A-Z0-9]/g, '');

export interface ParsedLabel {
  /** B (begins), I (inside), or O. E-/L- count as inside, S-/U- as begin. */
  position: 'B' | 'I' | 'O';
  entity: PiiEntity | null;
  /** The normalised label without its prefix ("FIRSTNAME"). */
  base: string;
}

/** Splits `B-PER` / `I-LOC` / `PER` and maps the rest through the label map. */
export function parseLabel(raw: string, map: LabelMap): ParsedLabel {
  const m = /^([BIESLU])[-_](.+)$/.exec(raw);
  const base = normalizeLabel(m ? (m[2] ?? '') : raw);
  const entity = base in map ? (map[base] ?? null) : null;
  if (entity === null) return { position: 'O', entity: null, base };
  const p = m?.[1];
  return { position: p === 'I' || p === 'E' || p === 'L' ? 'I' : 'B', entity, base };
}

/** User overrides merged over the defaults, keys normalised. */
export function labelMap(overrides: LabelMap = {}): LabelMap {
  const out: LabelMap = { ...DEFAULT_LABELS };
  for (const [k, v] of Object.entries(overrides)) out[normalizeLabel(k)] = v;
  return out;
}
