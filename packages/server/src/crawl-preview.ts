import type { CrawlParams } from './schemas.ts';

/**
 * Deterministic crawl options from a natural-language prompt, so the same prompt always previews
 * the same crawl. The rules, applied to the lower-cased prompt:
 *
 * - limit: a number followed by pages/urls/links/documents/docs/articles/posts ("up to 50 pages");
 *   clamped to 1–100000; otherwise 10000 (the hosted default).
 * - maxDiscoveryDepth: "N levels/clicks/hops (deep)" or "depth (of) N"; otherwise left unset.
 * - sitemap: "only"/"just" with "sitemap" in one clause → only; ignore/skip/without/no + sitemap →
 *   skip; otherwise include.
 * - crawlEntireDomain: "entire/whole/full site|domain|website" or "everything".
 * - allowSubdomains: "subdomain(s)" mentioned and not negated in its clause.
 * - paths: every token that starts with "/" ("/blog", "/docs/*"), and the word in "only the X
 *   pages/posts/articles/section" or "in/under the X section/folder/directory". A path goes to
 *   excludePaths when the last keyword before it in its clause (clauses end at . ; , or "but") is a
 *   negation (exclude, except, skip, ignore, without, not, no, avoid), otherwise to includePaths.
 *   Each becomes the anchored regex `^/x(/.*)?$`, `*` meaning any characters.
 */

const NEGATIVE = /\b(exclude|excluding|except|skip|skipping|ignore|ignoring|without|not|no|avoid|avoiding)\b/g;
const POSITIVE = /\b(include|including|only|just|under|in|within|from|crawl|focus)\b/g;

function lastIndexOf(re: RegExp, text: string): number {
  let last = -1;
  for (const m of text.matchAll(re)) last = m.index ?? last;
  return last;
}

function toPattern(path: string): string {
  const clean = path.replace(/\/+$/, '').replace(/\/\*$/, '') || '/';
  const escaped = clean.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  return clean === '/' ? '^/.*$' : `^${escaped}(/.*)?$`;
}

interface Mention {
  path: string;
  index: number;
}

function pathMentions(prompt: string): Mention[] {
  const found: Mention[] = [];
  for (const m of prompt.matchAll(/(^|[\s"'`(])(\/[\w\-./*]*)/g)) {
    const path = m[2] as string;
    if (path.length > 1) found.push({ path, index: (m.index ?? 0) + (m[1] as string).length });
  }
  const named = [
    /\b(?:only|just)\s+(?:the\s+)?([a-z][\w-]*)\s+(?:pages?|posts?|articles?|section)\b/g,
    /\b(?:in|under|within|from)\s+(?:the\s+)?([a-z][\w-]*)\s+(?:section|folder|directory)\b/g,
    /\b(?:exclude|excluding|except|skip|skipping|ignore|ignoring|without|avoid)\s+(?:the\s+|any\s+|all\s+)?([a-z][\w-]*)\s+(?:pages?|posts?|articles?|section|folder|directory)\b/g,
  ];
  for (const re of named) {
    for (const m of prompt.matchAll(re)) {
      const word = m[1] as string;
      if (['the', 'a', 'all', 'any', 'some'].includes(word)) continue;
      found.push({ path: `/${word}`, index: (m.index ?? 0) + m[0].indexOf(word) });
    }
  }
  return found.sort((a, b) => a.index - b.index);
}

function clauseBefore(prompt: string, index: number): string {
  const head = prompt.slice(0, index);
  const cut = Math.max(head.lastIndexOf('.'), head.lastIndexOf(';'), head.lastIndexOf(','), head.lastIndexOf(' but '));
  return head.slice(cut + 1);
}

export function deriveCrawlParams(url: string, rawPrompt: string): CrawlParams {
  const prompt = rawPrompt.toLowerCase();
  const clauses = prompt.split(/[.;,]|\bbut\b/);

  const limitMatch = /(\d[\d,]*)\s*(?:pages?|urls?|links?|documents?|docs|articles?|posts?)\b/.exec(prompt);
  const limit = limitMatch
    ? Math.min(100_000, Math.max(1, Number((limitMatch[1] as string).replace(/,/g, ''))))
    : 10_000;

  const depthMatch =
    /(\d+)\s*(?:levels?|clicks?|hops?)(?:\s+(?:deep|down|away))?\b/.exec(prompt) ??
    /\bdepth\s+(?:of\s+)?(\d+)/.exec(prompt);

  let sitemap: CrawlParams['sitemap'] = 'include';
  for (const c of clauses) {
    if (!/\bsitemaps?\b/.test(c)) continue;
    if (/\b(only|just|solely)\b/.test(c)) sitemap = 'only';
    else if (/\b(ignore|skip|without|no|don'?t|do not|avoid)\b/.test(c)) sitemap = 'skip';
  }

  const crawlEntireDomain = /\b(entire|whole|full)\s+(site|domain|website)\b|\beverything\b/.test(prompt);
  const allowSubdomains = clauses.some(
    (c) => /\bsub-?domains?\b/.test(c) && !/\b(no|not|without|exclude|excluding|skip|ignore)\b/.test(c),
  );

  const includePaths: string[] = [];
  const excludePaths: string[] = [];
  for (const { path, index } of pathMentions(prompt)) {
    const clause = clauseBefore(prompt, index);
    const negative = lastIndexOf(NEGATIVE, clause) > lastIndexOf(POSITIVE, clause);
    const list = negative ? excludePaths : includePaths;
    const pattern = toPattern(path);
    if (!list.includes(pattern)) list.push(pattern);
  }

  const params: CrawlParams = {
    url,
    includePaths,
    excludePaths,
    limit,
    crawlEntireDomain,
    sitemap,
    allowSubdomains,
  };
  if (depthMatch) params.maxDiscoveryDepth = Number(depthMatch[1]);
  return params;
}
