import type { z } from 'zod';

type Issue = z.core.$ZodIssue;

/** One validation problem, said so that the caller can fix it: where, and what is accepted there. */
export interface Explained {
  path: PropertyKey[];
  message: string;
}

const quoted = (v: unknown) => JSON.stringify(v);

/** `"a", "b" or "c"` */
function oneOf(values: readonly unknown[]): string {
  const q = [...new Set(values.map(quoted))];
  return q.length > 1 ? `one of ${q.slice(0, -1).join(', ')} or ${q.at(-1)}` : (q[0] ?? 'nothing');
}

/** The value at `path` inside `input`, when it is there. */
function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let v = input;
  for (const key of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

/** What was given, when it is short enough to quote back. */
function given(input: unknown, path: readonly PropertyKey[]): string {
  const v = valueAt(input, path);
  if (typeof v === 'string') return v.length <= 40 ? ` (got ${quoted(v)})` : '';
  if (typeof v === 'number' || typeof v === 'boolean') return ` (got ${String(v)})`;
  return '';
}

const at = (issue: Issue, path: readonly PropertyKey[]) =>
  issue.path.length === path.length && path.every((p, i) => issue.path[i] === p);

/**
 * A union branch that does not take this kind of value at all: a string or number for an object
 * branch, another literal, or an object whose `type` names another branch. Its issues say nothing
 * about what is wrong with the value the caller meant.
 */
const rejectsKind = (branch: readonly Issue[]) =>
  branch.some(
    (i) =>
      ((i.code === 'invalid_type' || i.code === 'invalid_value') && at(i, [])) ||
      (i.code === 'invalid_value' && at(i, ['type'])),
  );

/**
 * zod's issue made to teach: an invalid enum or literal names every accepted value, and a union
 * ("Invalid input") is opened to the branch the value was meant for, or to the values every
 * branch accepts.
 */
export function explainIssue(issue: Issue, input: unknown): Explained {
  if (issue.code === 'invalid_value')
    return { path: issue.path, message: `expected ${oneOf(issue.values)}${given(input, issue.path)}` };
  if (issue.code !== 'invalid_union') return { path: issue.path, message: issue.message };
  // A discriminated union names its accepted discriminator values instead of branch errors.
  const options = (issue as { options?: unknown }).options;
  if (issue.errors.length === 0 && Array.isArray(options))
    return { path: issue.path, message: `expected ${oneOf(options)}${given(input, issue.path)}` };
  if (issue.errors.length === 0) return { path: issue.path, message: issue.message };
  const branches = issue.errors;
  const meant = branches.find((b) => !rejectsKind(b))?.[0];
  if (meant) return explainIssue({ ...meant, path: [...issue.path, ...meant.path] } as Issue, input);
  const all = branches.flat();
  const typed = all.filter((i) => i.code === 'invalid_value' && at(i, ['type']));
  if (typed.length > 0) {
    const path = [...issue.path, 'type'];
    const values = typed.flatMap((i) => (i.code === 'invalid_value' ? i.values : []));
    return { path, message: `expected ${oneOf(values)}${given(input, path)}` };
  }
  const values = all.flatMap((i) => (i.code === 'invalid_value' && at(i, []) ? i.values : []));
  if (values.length > 0) return { path: issue.path, message: `expected ${oneOf(values)}${given(input, issue.path)}` };
  const kinds = [...new Set(all.flatMap((i) => (i.code === 'invalid_type' ? [i.expected] : [])))];
  return {
    path: issue.path,
    message: kinds.length ? `expected ${kinds.join(' or ')}` : issue.message,
  };
}
