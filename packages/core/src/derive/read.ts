import type { ValueKind } from './labels.ts';
import {
  booleanValue,
  enumValue,
  type Found,
  firstDate,
  firstDateTime,
  firstEmail,
  firstIdentifier,
  firstPhone,
  numbers,
} from './values.ts';

/** The JSON Schema keywords the extractor reads. */
export interface FieldSchema {
  type?: string | string[];
  format?: string;
  description?: string;
  enum?: unknown[];
  properties?: Record<string, FieldSchema>;
  items?: FieldSchema;
  required?: string[];
}

const wordsBefore = (text: string, index: number) => text.slice(0, index).split(/\s+/).filter(Boolean).length;

/** Text value with the label's punctuation and trailing separators trimmed. */
export function cleanText(text: string): string {
  return text
    .replace(/^[\s:#\-–—|]+/, '')
    .replace(/[\s,;:|\-–—]+$/, '')
    .slice(0, 240)
    .trim();
}

/**
 * Reads a value of `kind` from the text that follows a label. The value must start within the
 * first few words: a number ten words on belongs to something else.
 */
export function readValue(
  text: string,
  kind: ValueKind,
  schema: FieldSchema,
  maxWordsBefore = 3,
): Found<unknown> | undefined {
  let found: Found<unknown> | undefined;
  if (schema.enum?.length) {
    const v = enumValue(cleanText(text), schema.enum);
    return v === undefined ? undefined : { value: v, index: 0, end: text.length };
  }
  switch (kind) {
    case 'money':
    case 'number':
    case 'integer':
    case 'percent': {
      const nums = numbers(text);
      const pick =
        kind === 'percent'
          ? (nums.find((n) => n.percent) ?? nums[0])
          : kind === 'integer'
            ? nums.find((n) => !n.percent && Number.isInteger(n.value))
            : (nums.find((n) => !n.percent) ?? (kind === 'number' ? nums[0] : undefined));
      found = pick;
      break;
    }
    case 'date':
      found = firstDate(text);
      break;
    case 'datetime':
      found = firstDateTime(text);
      break;
    case 'email':
      found = firstEmail(text);
      break;
    case 'phone':
      found = firstPhone(text);
      break;
    case 'id':
      found = firstIdentifier(text, maxWordsBefore + 1);
      break;
    case 'boolean': {
      const b = booleanValue(text);
      found = b === undefined ? undefined : { value: b, index: 0, end: text.length };
      break;
    }
    default: {
      const t = cleanText(text);
      found = t ? { value: t, index: 0, end: text.length } : undefined;
    }
  }
  if (!found || wordsBefore(text, found.index) > maxWordsBefore) return undefined;
  return found;
}
