/**
 * Page cleaning before conversion: what never is content, then the caller's `includeTags` /
 * `excludeTags`, then (with `onlyMainContent`) page chrome. Works in place on the parsed DOM.
 */
import { nameOf, walk } from './walk.ts';

/** Page chrome by element type. `header`/`footer` inside an article belong to the article. */
const CHROME_TAGS = new Set(['NAV', 'ASIDE', 'HEADER', 'FOOTER']);

/** Class or id tokens that mark page chrome (matched per token, or as a -/_ separated part). */
const CHROME_WORDS =
  /^(?:ads?|advert\w*|advertisement|sidebar|side-?bar|cookies?|cookie-?banner|consent|gdpr|banner|menu|navbar|nav|navigation|share|sharing|social|breadcrumbs?|popup|modal|newsletter|subscribe|related|promo|sponsored|skip-?link)$/i;
const CHROME_PARTS =
  /(?:^|[-_])(?:sidebar|cookie|advert|share|social|breadcrumb|popup|newsletter|navbar|menu|sponsor)(?:[-_]|$)/i;

function isChromeToken(token: string): boolean {
  return CHROME_WORDS.test(token) || CHROME_PARTS.test(token);
}

/** `main, article, [role="main"]` */
function isMainMarker(el: Element): boolean {
  const name = nameOf(el);
  return name === 'main' || name === 'article' || el.getAttribute('role') === 'main';
}

/** `el` or an ancestor below `stop` is a main-content marker; `beyond` answers for `stop` and above. */
function insideMain(el: Element, stop: Element | null, beyond: boolean): boolean {
  for (let p: Element | null = el; p && p !== stop; p = p.parentElement) if (isMainMarker(p)) return true;
  return beyond;
}

function looksLikeChrome(el: Element, inMain: () => boolean): boolean {
  if (CHROME_TAGS.has(el.tagName)) {
    if ((el.tagName === 'HEADER' || el.tagName === 'FOOTER') && inMain()) return false;
    return true;
  }
  const role = el.getAttribute('role');
  if (role && /^(?:navigation|banner|contentinfo|complementary|search)$/i.test(role)) return true;
  const tokens = `${el.getAttribute('class') ?? ''} ${el.getAttribute('id') ?? ''}`.split(/\s+/).filter(Boolean);
  return tokens.some(isChromeToken);
}

/** Never content, in any mode; also removed from `data.html`. */
const ALWAYS_DROPPED = new Set(['script', 'style', 'noscript', 'template', 'meta', 'link', 'head', 'title', 'base']);

export function dropNonContent(root: Element): void {
  const dropped: Element[] = [];
  walk(root, (el) => {
    if (!ALWAYS_DROPPED.has(nameOf(el))) return true;
    dropped.push(el);
    return false;
  });
  for (const el of dropped) el.remove();
}

/** Elements hidden by the author: never rendered by a browser, so never content. */
export function dropHidden(root: Element): void {
  // Decided before anything is removed: an element's own text is all that a decision reads, and
  // what lies inside a removed element goes with it.
  const hidden: Element[] = [];
  walk(root, (el) => {
    let drop: boolean;
    if (el.hasAttribute('hidden')) drop = true;
    // aria-hidden marks decorative icons; keep it only when it wraps substantial text.
    else if (el.getAttribute('aria-hidden') === 'true') drop = (el.textContent ?? '').trim().length < 40;
    else drop = /display\s*:\s*none|visibility\s*:\s*hidden/i.test(el.getAttribute('style') ?? '');
    if (drop) hidden.push(el);
    return !drop;
  });
  for (const el of hidden) el.remove();
}

function safeQueryAll(root: Element, selector: string): Element[] {
  try {
    return [...root.querySelectorAll(selector)];
  } catch {
    // An invalid selector from the caller matches nothing rather than failing the parse.
    return [];
  }
}

export function applyExclude(root: Element, selectors: readonly string[]): void {
  for (const sel of selectors) for (const el of safeQueryAll(root, sel)) el.remove();
}

/** The matches of `includeTags`, outermost only, in document order; undefined when none match. */
export function applyInclude(root: Element, selectors: readonly string[]): Element[] | undefined {
  if (!selectors.length) return undefined;
  const hits = new Set<Element>();
  for (const sel of selectors) for (const el of safeQueryAll(root, sel)) hits.add(el);
  const outer = [...hits].filter((el) => {
    for (let p = el.parentElement; p; p = p.parentElement) if (hits.has(p)) return false;
    return true;
  });
  // querySelectorAll per selector loses global order; restore it from a single document walk.
  const order = new Map<Element, number>();
  for (const el of safeQueryAll(root, '*')) order.set(el, order.size);
  return outer.sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0));
}

/** A character that is not white space in a text node outside the `skipped` subtrees. */
function hasTextOutside(root: Element, skipped: ReadonlySet<Element>): boolean {
  const stack: Node[] = [root];
  while (stack.length) {
    const node = stack.pop() as Node;
    if (node.nodeType === 3 || node.nodeType === 4) {
      if (/\S/.test(node.nodeValue ?? '')) return true;
    } else if (node.nodeType === 1 && !skipped.has(node as Element)) {
      for (let child = node.firstChild; child; child = child.nextSibling) stack.push(child);
    }
  }
  return false;
}

/**
 * Removes page chrome unless that would leave nothing: a page our heuristics read as all chrome
 * (no text, image or table outside it) is kept whole.
 */
export function dropChrome(root: Element): void {
  // An element that holds the main content is not chrome, however it is labelled.
  const holdsMain = new Set<Element>();
  walk(root, (el) => {
    if (isMainMarker(el))
      for (let p = el.parentElement; p && p !== root && !holdsMain.has(p); p = p.parentElement) holdsMain.add(p);
    return true;
  });
  const rootInMain = insideMain(root, null, false);
  const chrome: Element[] = [];
  let keptMedia = false;
  walk(root, (el) => {
    if (looksLikeChrome(el, () => insideMain(el, root, rootInMain)) && !holdsMain.has(el)) {
      chrome.push(el);
      return false;
    }
    const name = nameOf(el);
    if (name === 'img' || name === 'table') keptMedia = true;
    return true;
  });
  if (!chrome.length) return;
  if (!keptMedia && !hasTextOutside(root, new Set(chrome))) return;
  for (const el of chrome) el.remove();
}
