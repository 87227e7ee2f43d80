import { DocmillError } from '../errors.ts';

/** Deepest nesting of objects and arrays in the options (a JSON schema included). */
export const MAX_OPTIONS_DEPTH = 64;
/** Values (objects, arrays, strings, numbers, …) the options may hold in all. */
export const MAX_OPTIONS_VALUES = 10_000;
/** Characters of all strings in the options, object keys included. */
export const MAX_OPTIONS_CHARS = 1_000_000;

const tooLarge = (message: string): DocmillError => new DocmillError(400, 'BAD_REQUEST', message);

interface Node {
  value: unknown;
  depth: number;
  parent: Node | undefined;
  key: string | number;
}

/** `formats[0].schema.properties`, each key shortened: the path goes into an error message. */
function pathOf(node: Node): string {
  const parts: string[] = [];
  for (let n: Node | undefined = node; n?.parent; n = n.parent) {
    parts.push(typeof n.key === 'number' ? `[${n.key}]` : `.${n.key.length > 40 ? `${n.key.slice(0, 40)}…` : n.key}`);
  }
  return parts.reverse().join('').replace(/^\./, '') || 'options';
}

/**
 * Refuses options too deep or too large to validate and use safely, before anything recursive
 * (the schema validator, JSON.stringify of a `json` schema) sees them: a 10,000-deep schema
 * overflowed the stack inside a worker. Iterative, and it stops at the first limit passed.
 */
export function checkOptionsBounds(input: unknown): void {
  const stack: Node[] = [{ value: input, depth: 0, parent: undefined, key: '' }];
  let values = 0;
  let chars = 0;
  const tooMany = () => tooLarge(`The options hold more than ${MAX_OPTIONS_VALUES} values (the limit).`);
  while (stack.length) {
    const node = stack.pop() as Node;
    const { value } = node;
    if (++values > MAX_OPTIONS_VALUES) throw tooMany();
    if (typeof value === 'string') chars += value.length;
    else if (value !== null && typeof value === 'object') {
      if (node.depth >= MAX_OPTIONS_DEPTH) {
        throw tooLarge(
          `Invalid option ${pathOf(node)}: nested more than ${MAX_OPTIONS_DEPTH} levels deep (the limit for options).`,
        );
      }
      const keys: (string | number)[] = Array.isArray(value) ? [] : Object.keys(value);
      const count = Array.isArray(value) ? value.length : keys.length;
      // Counted before anything is pushed: a million-element array is refused, not walked.
      if (values + stack.length + count > MAX_OPTIONS_VALUES) throw tooMany();
      for (let i = count - 1; i >= 0; i--) {
        const key = Array.isArray(value) ? i : (keys[i] as string);
        if (typeof key === 'string') chars += key.length;
        const child = (value as Record<string | number, unknown>)[key];
        stack.push({ value: child, depth: node.depth + 1, parent: node, key });
      }
    }
    if (chars > MAX_OPTIONS_CHARS) {
      throw tooLarge(`The options hold more than ${MAX_OPTIONS_CHARS} characters of text (the limit).`);
    }
  }
}
