import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { DocmillError } from '../errors.ts';

/**
 * One Ajv instance for every schema a request brings. Unknown keywords and formats are tolerated
 * (user schemas are written for models, not validators), and Ajv never logs: library code stays quiet.
 */
const ajv = new Ajv({ strict: false, allErrors: true, logger: false, validateFormats: true });
ajv.addFormat('date', /^\d{4}-\d{2}-\d{2}$/);
ajv.addFormat('date-time', /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/i);
ajv.addFormat('email', /^[^\s@]+@[^\s@]+\.[^\s@]+$/);

const cache = new Map<string, ValidateFunction>();
const CACHE_SIZE = 64;

export function compileSchema(schema: Record<string, unknown>): ValidateFunction {
  const key = JSON.stringify(schema);
  const hit = cache.get(key);
  if (hit) return hit;
  // Draft tags name meta-schemas Ajv may not have loaded; the keywords are what matter here.
  const { $schema: _ignored, ...rest } = schema;
  let fn: ValidateFunction;
  try {
    fn = ajv.compile(rest);
  } catch (err) {
    throw new DocmillError(400, 'BAD_REQUEST', `Invalid option formats[json].schema: ${(err as Error).message}`);
  }
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  cache.set(key, fn);
  return fn;
}

const pathOf = (e: ErrorObject): string => {
  const base = e.instancePath
    .split('/')
    .filter(Boolean)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (e.keyword === 'required') base.push(String((e.params as { missingProperty?: string }).missingProperty));
  return base.join('.');
};

/** Dotted paths of the fields that break the schema (empty when the value validates). */
export function checkAgainstSchema(schema: Record<string, unknown> | object, value: unknown): string[] {
  const fn = compileSchema(schema as Record<string, unknown>);
  if (fn(value)) return [];
  return [...new Set((fn.errors ?? []).map(pathOf))];
}

/** A short, model-readable account of why `value` does not validate, or undefined when it does. */
export function schemaErrors(schema: Record<string, unknown>, value: unknown): string | undefined {
  const fn = compileSchema(schema);
  if (fn(value)) return undefined;
  return (fn.errors ?? [])
    .slice(0, 10)
    .map((e) => `${e.instancePath || '(root)'} ${e.message ?? e.keyword}`)
    .join('; ');
}
