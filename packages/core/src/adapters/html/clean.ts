/**
 * Page cleaning before conversion: what never is content, then the caller's `includeTags` /
 * `excludeTags`, then (with `onlyMainContent`) page chrome. Works in place on the parsed DOM.
 */

/** Never content, in any mode; also removed from `data.html`. */
const ALWAYS_DROPPED = 'script, style, noscript, template, meta, link, head, title, base';

/** Page chrome by element type. `header`/`footer` inside an article belong to the article. */
const CHROME_TAGS = new Set(['NAV', 'ASIDE', 'HEADER', 'FOOTER']);

/** Class or id tokens that mark page chrome (matched per token, or as a -/_ separated part). */
const CHROME_WORDS =
  /^(?:ads?|advert\w*|advertisement|sidebar|side-?bar|cookies?|cookie-?banner|consent|gdpr|banner|menu|navbar|nav|navigation|share|sharing|social|breadcrumbs?|popup|modal|newsletter|subscribe|related|promo|sponsored|skip-?link)$/i;
const CHROME_PARTS =
  /(?:^|[-_])(?:sidebar|cookie|advert|share|social|breadcrumb|popup|newsletter|navbar|menu|sponsor)(?:[-_]|$)/i;

const MAIN_MARKERS = 'main, article, [role="main"]';

function isChromeToken(token: string): boolean {
  return CHROME_WORDS.test(token) || CHROME_PARTS.test(token);
}

function looksLikeChrome(el: Element): boolean {
  if (CHROME_TAGS.has(el.tagName)) {
    if ((el.tagName === 'HEADER' || el.tagName === 'FOOTER') && el.closest('article, main, [role="main"]'))
      return false;
    return true;
  }
  const role = el.getAttribute('role');
  if (role && /^(?:navigation|banner|contentinfo|complementary|search)$/i.test(role)) return true;
  const tokens = `${el.getAttribute('class') ?? ''} ${el.getAttribute('id') ?? ''}`.split(/\s+/).filter(Boolean);
  return tokens.some(isChromeToken);
}

export function dropNonContent(root: Element): void {
  for (const el of [...root.querySelectorAll(ALWAYS_DROPPED)]) el.remove();
}

/** Elements hidden by the author: never rendered by a browser, so never content. */
export function dropHidden(root: Element): void {
  for (const el of [...root.querySelectorAll('[hidden], [aria-hidden="true"], [style]')]) {
    if (el.hasAttribute('hidden') || el.getAttribute('aria-hidden') === 'true') {
      // aria-hidden marks decorative icons; keep it only when it wraps substantial text.
      if (el.hasAttribute('hidden') || (el.textContent ?? '').trim().length < 40) el.remove();
      continue;
    }
    if (/display\s*:\s*none|visibility\s*:\s*hidden/i.test(el.getAttribute('style') ?? '')) el.remove();
  }
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

const visibleLength = (el: Element): number => (el.textContent ?? '').replace(/\s+/g, '').length;

/**
 * Removes page chrome unless that would leave nothing: a page our heuristics read as all chrome
 * is kept whole. Decided from text lengths, so the page is never copied.
 */
export function dropChrome(root: Element): void {
  const chrome: Element[] = [];
  for (const el of root.querySelectorAll('*')) {
    // Document order: a descendant of the last pick is already covered by it.
    const last = chrome[chrome.length - 1];
    if (last?.contains(el)) continue;
    if (looksLikeChrome(el) && !el.querySelector(MAIN_MARKERS)) chrome.push(el);
  }
  if (!chrome.length) return;
  const kept = visibleLength(root) - chrome.reduce((n, el) => n + visibleLength(el), 0);
  const keptMedia = [...root.querySelectorAll('img, table')].some((m) => !chrome.some((c) => c.contains(m)));
  if (kept <= 0 && !keptMedia) return;
  for (const el of chrome) el.remove();
}
