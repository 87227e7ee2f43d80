/**
 * Element walks for the adapter's own lookups. linkedom compiles a selector and collects every
 * match on each `querySelector(All)` call, which cost more than the work done with the results;
 * comparing names and attributes on a walk gives the same elements in the same order.
 */

/** The HTML namespace: elements outside it (inline SVG, MathML) are not HTML's own. */
export const HTML_NS = 'http://www.w3.org/1999/xhtml';

/** Lower-cased local name, as a type selector compares it in an HTML document. */
export const nameOf = (el: Element): string => el.localName.toLowerCase();

/**
 * The descendant elements of `root` in document order. `visit` returns false to skip an element's
 * descendants. Sibling links instead of recursion: hostile nesting depth must not overflow the
 * call stack. The tree must not change during the walk.
 */
export function walk(root: Element, visit: (el: Element) => boolean): void {
  let el = root.firstElementChild;
  while (el) {
    let next = visit(el) ? el.firstElementChild : null;
    for (let at: Element | null = el; !next && at && at !== root; at = at.parentElement) next = at.nextElementSibling;
    el = next;
  }
}

/** The first descendant of `root` in document order that `test` accepts (`querySelector`). */
export function findFirst(root: Element, test: (el: Element) => boolean): Element | undefined {
  let found: Element | undefined;
  walk(root, (el) => {
    if (found) return false;
    if (test(el)) found = el;
    return !found;
  });
  return found;
}
