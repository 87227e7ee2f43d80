/**
 * URL handling for HTML input: everything is resolved against `<base href>` (or the caller's
 * source URL) when one is known; without a base a relative URL is kept as written, since
 * inventing an origin would be worse than leaving it relative.
 */

export function resolveUrl(href: string, base: string | undefined): string {
  const h = href.trim();
  if (!base || !h || h.startsWith('#') || /^(data|javascript|mailto|tel):/i.test(h)) return h;
  try {
    return new URL(h, base).href;
  } catch {
    return h;
  }
}

/** The candidate with the largest width (`640w`) or density (`2x`) descriptor in a srcset. */
export function largestSrcset(srcset: string): string | undefined {
  let best: string | undefined;
  let bestScore = -1;
  // Candidates are comma-separated, but a URL may itself contain commas: split on commas that
  // follow a descriptor or precede whitespace.
  for (const part of srcset.split(/,\s+|,(?=\S+\s+\d)/)) {
    const [url, descriptor] = part.trim().split(/\s+/, 2);
    if (!url) continue;
    const m = /^(\d+(?:\.\d+)?)([wx])$/.exec(descriptor ?? '1x');
    // Density descriptors are scaled so 2x beats a 1x candidate but widths still compare as widths.
    const score = m ? Number(m[1]) * (m[2] === 'x' ? 1000 : 1) : 1000;
    if (score > bestScore) {
      best = url;
      bestScore = score;
    }
  }
  return best;
}

/** Absolute base for the page: `<base href>` resolved against the caller's URL, if any. */
export function pageBase(baseHref: string | null | undefined, sourceURL: string | undefined): string | undefined {
  if (baseHref) {
    try {
      return new URL(baseHref, sourceURL).href;
    } catch {
      // A relative <base> without a source URL cannot anchor anything.
    }
  }
  return sourceURL;
}
