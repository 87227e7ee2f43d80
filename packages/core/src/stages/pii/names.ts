import { append } from '../../util/arrays.ts';
import { contextBefore, eachMatch } from './context.ts';
import { KIND, type NameLexicon } from './lexicon.ts';
import type { PiiSpan } from './types.ts';

const person = (out: PiiSpan[], start: number, end: number) =>
  out.push({ start, end, entity: 'PERSON', validated: false, source: 'lexicon' });
const location = (out: PiiSpan[], start: number, end: number, validated = false) =>
  out.push({ start, end, entity: 'LOCATION', validated, source: 'pattern' });

// A run of capitalised words (initials and name particles allowed inside). The lookahead is a
// cheap superset of \p{Lu} (a plain range check): without it every character of the text pays
// for the Unicode property lookup and the lookbehind (4.5x slower over corpus text).
const CAPS_RUN =
  /(?=[A-Z\u00C0-\u{10FFFF}])\p{Lu}(?<![\p{L}\p{N}_@.-]\p{Lu})[\p{L}'’-]*\.?(?:[ \t]+(?:\p{Lu}[\p{L}'’-]*\.?|(?:de|da|di|del|della|van|von|der|den|la|le|du|bin|al|el|st\.)(?=[ \t]+\p{Lu})))*/gu;

const HONORIFIC =
  /\b(?:Mr|Mrs|Ms|Miss|Mx|Dr|Prof|Professor|Sir|Dame|Madam|Rev|Hon|Capt|Lt|Sgt|Col|Gen|Mme|Mlle|Herr|Frau|Judge|Officer|Nurse)\.?[ \t]+/g;
// Field labels (`Name:`, `Attn =`) after which a capitalised run is a person's name. Only tried
// right before each colon or equals sign (see fieldEnds), never at every position of the text.
const PERSON_FIELD =
  /\b(?:name|full name|first name|last name|surname|customer|client|patient|employee|contact|contact person|attn|attention|from|to|cc|bcc|signed|signature|author|owner|applicant|tenant|landlord|guarantor|beneficiary|account holder|cardholder|card holder|recipient|sender|prepared by|approved by|reviewed by|requested by|submitted by|manager|witness|emergency contact|physician|doctor|insured|policyholder|borrower|buyer|seller|student|spouse|agent|representative|rep|assignee|reporter|candidate|user|member|passenger|guest)\s*$/i;
// Greetings, sign-offs and signature dashes after which a capitalised run is a person's name.
const PERSON_CUE = String.raw`(?:\b(?:dear|hi|hello|thanks|thank you|congratulations|reach|call|ask|ping|tell|meet|invite|email|text|cc),?[ \t]+|\b(?:regards|sincerely|cheers|yours truly|yours faithfully|respectfully|best wishes|best|thanks|warmly|cordially),?\s*\n\s*|^[ \t]*(?:--|—)\s*)`;
// Without a colon the label must share the value's line ("lives in Paris"): a column head ending
// a CSV header line ("name,email,city") says nothing of the next line's first word.
const LOCATION_LABEL = String.raw`\b(?:city|town|village|location|address|addr|home address|mailing address|billing address|shipping address|residence|birthplace|place of birth|born in|lives in|living in|located in|based in|moved to|resides in|hometown|county|state|province|region|country|destination|origin)(?:\s*[:=]\s*|[ \t]+)`;
const NEAR_PLACE = String.raw`\b(?:in|near|from|at|to|outside|around|visit|visited|of)[ \t]+`;
// The three kinds of cue in one pass over the text (a third cheaper than three passes); the group
// that matched tells the kind. Where a place label holds a preposition ("born in") the label wins,
// which ends at the same place.
const CUES = new RegExp(`(${PERSON_CUE})|(${LOCATION_LABEL})|${NEAR_PLACE}`, 'gim');

// English village and town prefixes too ("Great Yarmouth", "Nether Wallop", "Chipping Norton").
const PLACE_PREFIX =
  /^(?:North|South|East|West|New|Lake|Port|Fort|Mount|Mt\.?|Saint|St\.?|San|Santa|Los|Las|El|Le|La|Glen|Bay|Great|Little|Nether|Upper|Lower|Long|Castle|Upton|Market|Chipping|Kings)$/;
const PLACE_SUFFIX =
  /^\p{Lu}\p{Ll}{2,}(?:ville|ton|town|burg|burgh|borough|boro|bury|chester|cester|caster|field|haven|mouth|port|stad|shire|worth|ford|fort|furt|view|side|land|berg|dale|wood|mont|polis|stead|ridge|stone|ingham|wick|wich)$/u;
// Hyphenated place names: "Stratford-upon-Avon", "Newcastle-under-Lyme", "Chapel-en-le-Frith".
const PLACE_HYPHEN = /^\p{Lu}[\p{L}'’-]*-(?:on|upon|under|over|le|la|en|by|in|cum|sub|super)-\p{Lu}/u;
// The last word of many two-word places: "Great Falls", "Rowland Heights", "Pinellas Park".
const PLACE_TAIL = /^(?:Heights|Falls|Springs|Park|Hills|Beach|End|Mount)$/;

interface Token {
  text: string;
  /** Without a trailing sentence period or comma. */
  bare: string;
  lower: string;
  start: number;
  end: number;
  /** KIND bits of `lower` in the lexicon. */
  kind: number;
}

/** True when the token's word is in the lexicon set `k` (a KIND bit). */
const is = (t: Token, k: number): boolean => (t.kind & k) !== 0;

const TRAILING = /[.,’']+$/;

function token(text: string, start: number, lex: NameLexicon): Token {
  const last = text.charCodeAt(text.length - 1);
  // Most words end in a letter: skip the regexes for them.
  const plain = (last >= 97 && last <= 122) || (last >= 65 && last <= 90);
  const bare = plain ? text : text.replace(/[.,]+$/, '');
  const lower = (plain ? text : text.replace(TRAILING, '')).toLowerCase();
  return { text, bare, lower, start, end: start + text.length, kind: lex.kinds.get(lower) ?? 0 };
}

function tokensOf(run: string, offset: number, lex: NameLexicon): Token[] {
  if (!run.includes(' ') && !run.includes('\t')) return [token(run, offset, lex)];
  const out: Token[] = [];
  const re = /\S+/g;
  for (let m = re.exec(run); m; m = re.exec(run)) out.push(token(m[0], offset + m.index, lex));
  return out;
}

const isInitial = (t: Token) => /^\p{Lu}\.$/u.test(t.text);
const bare = (t: Token) => t.bare;

/**
 * PERSON and LOCATION from capitalised runs: lexicon names, honorifics, labels, greetings and
 * signatures, place names and place-name morphology; plus street addresses and postal codes.
 */
export function findNamesAndPlaces(
  text: string,
  lex: NameLexicon,
  wantPerson: boolean,
  wantLocation: boolean,
  out: PiiSpan[],
): void {
  if (wantLocation) findAddresses(text, out);
  const hasField = text.includes(':') || text.includes('=');
  const cues: Cues = {
    honorific: endsOf(HONORIFIC, text),
    personLabel: new Set(),
    locationLabel: new Set(),
    nearPlace: new Set(),
  };
  eachMatch(CUES, text, (m) => {
    const end = m.index + m[0].length;
    (m[1] !== undefined ? cues.personLabel : m[2] !== undefined ? cues.locationLabel : cues.nearPlace).add(end);
  });
  if (hasField) fieldEnds(text, PERSON_FIELD, cues.personLabel);
  const before = out.length;
  if (hasField) {
    if (wantPerson) fieldValues(text, cues.personLabel, 'PERSON', out);
    if (wantLocation) fieldValues(text, cues.locationLabel, 'LOCATION', out);
  }
  eachMatch(CAPS_RUN, text, (m) => {
    if (lonelyCommonWord(m[0], m.index, text, lex, cues)) return;
    const tokens = tokensOf(m[0], m.index, lex);
    classifyRun(text, tokens, lex, cues, wantPerson, wantLocation, out);
  });
  // Surnames make up firm names ("Dominguez, Mcmillan and Lang"): not people under a company label.
  const firms = before < out.length && hasField ? fieldRanges(text, fieldEnds(text, ORG_FIELD, new Set())) : [];
  if (firms.length) {
    const kept = out
      .slice(before)
      .filter((s) => s.entity !== 'PERSON' || !firms.some(([a, b]) => s.start >= a && s.start < b));
    out.length = before;
    append(out, kept);
  }
}

/**
 * A single capitalised dictionary word or acronym with no cue before it (a sentence start, a
 * heading word): by far the commonest run, settled before any token is built.
 */
function lonelyCommonWord(run: string, at: number, text: string, lex: NameLexicon, cues: Cues): boolean {
  const last = run.charCodeAt(run.length - 1);
  if (!((last >= 97 && last <= 122) || (last >= 65 && last <= 90)) || run.includes(' ') || run.includes('\t'))
    return false;
  if (cues.honorific.has(at) || cues.personLabel.has(at) || cues.locationLabel.has(at) || text[at - 2] === ',')
    return false;
  // Acronyms (PDF, HTML, NASA) are no names unless a label says so.
  const second = run.charCodeAt(1);
  if (second >= 65 && second <= 90 && last >= 65 && last <= 90) return true;
  const kind = lex.kinds.get(run.toLowerCase()) ?? 0;
  return (kind & KIND.common) !== 0 && (kind & KIND.multi) === 0 && !PLACE_PREFIX.test(run);
}

const ORG_FIELD =
  /\b(?:company|company name|organi[sz]ation|employer|business|vendor|supplier|manufacturer|firm|agency|institution|bank name|brand)\s*$/i;
// A form field's value: to the end of the line, short, without sentence punctuation inside.
const FIELD_VALUE = /^(\p{Lu}[^\n]{0,47}?)[ \t.,;]*(?:\n|$)/u;

/** Ranges from each `label:` cue to the end of its line. */
function fieldRanges(text: string, ends: Set<number>): [number, number][] {
  const out: [number, number][] = [];
  for (const at of ends) {
    if (!/[:=][ \t]*$/.test(text.slice(Math.max(0, at - 3), at))) continue;
    const nl = text.indexOf('\n', at);
    out.push([at, nl < 0 ? text.length : nl]);
  }
  return out;
}

/**
 * "City: Antigua and Barbuda", "Last Name: Lozano, Dr": after a field label the whole short value
 * is the entity, lower-case words and all (table cells get their column head as label).
 */
function fieldValues(text: string, ends: Set<number>, entity: 'PERSON' | 'LOCATION', out: PiiSpan[]): void {
  for (const [a] of fieldRanges(text, ends)) {
    const m = FIELD_VALUE.exec(text.slice(a, a + 64));
    const v = m?.[1];
    if (!v || v.split(/\s+/).length > 5 || /[.!?;:]\s/.test(v)) continue;
    if (entity === 'PERSON' && /\d|@/.test(v)) continue;
    if (entity === 'PERSON') person(out, a, a + v.length);
    else location(out, a, a + v.length);
  }
}

/** Where the cue words end: a token starting there follows the cue. One pass per text, not per word. */
interface Cues {
  honorific: Set<number>;
  personLabel: Set<number>;
  locationLabel: Set<number>;
  nearPlace: Set<number>;
}

// Longer than any field label with the spaces a form may put before its colon.
const LABEL_REACH = 48;
const SPACES = /\s*/y;

/** Adds where `label:` / `label=` cues end, looking for the label only before each colon or `=`. */
function fieldEnds(text: string, label: RegExp, ends: Set<number>): Set<number> {
  let colon = text.indexOf(':');
  let equals = text.indexOf('=');
  while (colon >= 0 || equals >= 0) {
    const i = colon >= 0 && (equals < 0 || colon < equals) ? colon : equals;
    if (i === colon) colon = text.indexOf(':', i + 1);
    else equals = text.indexOf('=', i + 1);
    if (!label.test(text.slice(Math.max(0, i - LABEL_REACH), i))) continue;
    SPACES.lastIndex = i + 1;
    SPACES.test(text);
    ends.add(SPACES.lastIndex);
  }
  return ends;
}

function endsOf(re: RegExp, text: string): Set<number> {
  const ends = new Set<number>();
  eachMatch(re, text, (m) => ends.add(m.index + m[0].length));
  return ends;
}

function classifyRun(
  text: string,
  tokens: Token[],
  lex: NameLexicon,
  cues: Cues,
  wantPerson: boolean,
  wantLocation: boolean,
  out: PiiSpan[],
): void {
  let i = 0;
  while (i < tokens.length) {
    const t = tokens[i] as Token;
    const prefix = PLACE_PREFIX.test(t.bare);
    // "Rusty Y. Towne", "Deja Beatty-Lesch": a middle initial or a double-barrelled surname after a
    // capitalised word makes a name even of a dictionary word or a place ("Florida Tillman-Leffler").
    const shape = nameShapeEnd(tokens, i, lex);
    if (shape > i) {
      if (wantPerson) person(out, t.start, endOf(tokens[shape] as Token));
      i = shape + 1;
      continue;
    }
    // Most capitalised words are sentence starts and headings ("The", "Total"): a dictionary word
    // that is no name, opens no multi-word place, is no place prefix and follows no cue starts nothing.
    if (
      commonWord(t, lex) &&
      !is(t, KIND.multi) &&
      !prefix &&
      !cues.honorific.has(t.start) &&
      !cues.personLabel.has(t.start) &&
      !cues.locationLabel.has(t.start) &&
      text[t.start - 2] !== ','
    ) {
      i++;
      continue;
    }
    // Multi-word places and surnames first ("New York", "de la Cruz").
    const multi = lex.multi.get(t.lower);
    if (multi) {
      const hit = longestMulti(tokens, i, multi, lex.longestMulti);
      if (hit > i) {
        const phrase = tokens
          .slice(i, hit + 1)
          .map((x) => x.lower)
          .join(' ');
        if (lex.place.has(phrase) && wantLocation) location(out, t.start, endOf(tokens[hit] as Token));
        else if (lex.last.has(phrase) && wantPerson) person(out, t.start, endOf(tokens[hit] as Token));
        i = hit + 1;
        continue;
      }
    }
    const locationCue = cues.locationLabel.has(t.start);
    const placeCue = locationCue || cues.nearPlace.has(t.start);
    if (t.text.includes('-') && PLACE_HYPHEN.test(t.bare)) {
      if (wantLocation) location(out, t.start, endOf(t));
      i++;
      continue;
    }
    // A place-name prefix followed by a name-like word: "Port Aliyah", "Lake Kaylee", "New Brunswick".
    if (prefix && i + 1 < tokens.length) {
      const next = tokens[i + 1] as Token;
      if ((!is(next, KIND.common) && (nameLike(next) || placeSuffix(next))) || placeCue) {
        if (wantLocation) location(out, t.start, endOf(next));
        i += 2;
        continue;
      }
    }
    const personCue = cues.personLabel.has(t.start) || cues.honorific.has(t.start);
    const tail = tokens[i + 1];
    if (!personCue && tail && PLACE_TAIL.test(tail.bare) && !is(t, KIND.common) && !is(t, KIND.first) && nameLike(t)) {
      if (wantLocation) location(out, t.start, endOf(tail));
      i += 2;
      continue;
    }
    if (!personCue && (is(t, KIND.place) || (placeSuffix(t) && !is(t, KIND.common) && !is(t, KIND.last)))) {
      // "Jordan Smith", "Felton Langosh": a name-like word before a surname is a person, not a place.
      const next = tokens[i + 1];
      const personFirst =
        !placeCue &&
        (is(t, KIND.first) || !is(t, KIND.place)) &&
        next !== undefined &&
        !is(next, KIND.place) &&
        (is(next, KIND.last) || nameLike(next));
      if (!personFirst) {
        // A word of place-name shape alone in a list item or cell ("…,Hickleborough") is a place too.
        const alone = tokens.length === 1 && !is(t, KIND.first) && !is(t, KIND.last) && afterSeparator(text, t.start);
        if (wantLocation && (is(t, KIND.place) || placeCue || alone)) location(out, t.start, endOf(t));
        i++;
        continue;
      }
    }
    // "Springfield, Russian Federation": a run right after a place and a comma continues it.
    const afterPlace = followsPlace(text, t.start, out);
    if ((locationCue && !is(t, KIND.common)) || afterPlace) {
      let j = i;
      while (j + 1 < tokens.length && !lex.common.has((tokens[j + 1] as Token).lower)) j++;
      if (wantLocation) location(out, t.start, endOf(tokens[j] as Token));
      i = j + 1;
      continue;
    }
    const labelled = cues.honorific.has(t.start) || cues.personLabel.has(t.start);
    const startsName = (is(t, KIND.first) && !is(t, KIND.stop)) || isInitial(t);
    const next = tokens[i + 1];
    const surnameNext = next !== undefined && !commonWord(next, lex) && (is(next, KIND.last) || nameLike(next));
    const surnameHere = is(t, KIND.last) && !is(t, KIND.common);
    if (
      labelled ||
      startsName ||
      (surnameHere && next === undefined && i > 0) ||
      (surnameNext && !commonWord(t, lex))
    ) {
      if (!labelled && !startsName && !surnameNext) {
        i++;
        continue;
      }
      // Extend over further name parts: middle names, initials, surnames, unknown capitalised words
      // (after a first name even a dictionary word is a surname: "Ezekiel Keeling").
      let j = i;
      while (j + 1 < tokens.length && j - i < 3) {
        const n = tokens[j + 1] as Token;
        if (is(n, KIND.stop) || is(n, KIND.org) || is(n, KIND.place)) break;
        if (!(is(n, KIND.first) || is(n, KIND.last) || isInitial(n) || /^(?:\p{Lu}['’])?\p{Lu}\p{Ll}/u.test(n.text)))
          break;
        j++;
      }
      if (tokens.slice(i, j + 1).some((x) => is(x, KIND.org)) || is(t, KIND.org)) {
        i = j + 1;
        continue;
      }
      // A lone unknown word needs a label or honorific; a lone first name stands on its own.
      if (j > i || labelled || is(t, KIND.first)) {
        if (wantPerson) person(out, t.start, endOf(tokens[j] as Token));
      }
      i = j + 1;
      continue;
    }
    i++;
  }
}

const DOUBLE_BARRELLED = /^(?:Mc|Mac|O['’])?\p{Lu}\p{Ll}+(?:\p{Lu}\p{Ll}+)?-(?:Mc|Mac|O['’])?\p{Lu}\p{Ll}+$/u;

/**
 * The last token of a name told by its shape from token `i`: first word, middle initial, surname
 * ("Rusty Y. Towne"), or first word and double-barrelled surname ("Verla McCullough-Kerluke").
 * Returns `i` when there is none.
 */
function nameShapeEnd(tokens: readonly Token[], i: number, lex: NameLexicon): number {
  const t = tokens[i] as Token;
  const next = tokens[i + 1];
  // Cheap tests first: this runs for every word of every capitalised run.
  if (!next || !(next.text.includes('-') || isInitial(next))) return i;
  if (is(t, KIND.stop) || is(t, KIND.org) || !/^\p{Lu}\p{Ll}+$/u.test(t.text)) return i;
  // Compounds of dictionary words ("Self-Locking", "Open-Source") are no surnames.
  if (
    DOUBLE_BARRELLED.test(next.bare) &&
    !is(t, KIND.common) &&
    next.lower.split('-').every((part) => !lex.common.has(part) && !lex.org.has(part))
  )
    return i + 1;
  let j = i + 1;
  while (j < tokens.length && isInitial(tokens[j] as Token)) j++;
  const after = tokens[j];
  if (j > i + 1 && after && !is(after, KIND.common) && nameLike(after) && !is(after, KIND.org)) return j;
  return i;
}

/** True when a comma, semicolon, tab or table pipe comes right before `at` (spaces aside). */
function afterSeparator(text: string, at: number): boolean {
  let k = at - 1;
  while (k >= 0 && text[k] === ' ') k--;
  const c = text[k];
  return c === ',' || c === ';' || c === '|' || c === '\t';
}

/** A dictionary word, or a compound of dictionary words ("Self-Locking", "Open-Source"). */
function commonWord(t: Token, lex: NameLexicon): boolean {
  if (is(t, KIND.common)) return true;
  return t.lower.includes('-') && t.lower.split('-').every((part) => lex.common.has(part));
}

const placeSuffix = (t: Token) => t.bare.length >= 6 && PLACE_SUFFIX.test(t.bare);

/** True when a place span ends right before `at` and a comma ("Springfield, |Russia"). */
function followsPlace(text: string, at: number, out: readonly PiiSpan[]): boolean {
  if (text[at - 1] !== ',' && text[at - 2] !== ',') return false;
  const comma = /,[ \t]*$/.exec(text.slice(Math.max(0, at - 4), at));
  if (!comma) return false;
  const end = at - comma[0].length;
  // Spans arrive in text order: the one to find is among the last few.
  for (let k = out.length - 1; k >= 0 && k >= out.length - 8; k--) {
    const s = out[k] as PiiSpan;
    if (s.entity === 'LOCATION' && s.end === end) return true;
  }
  return false;
}

function nameLike(t: Token): boolean {
  return (
    is(t, KIND.first) ||
    is(t, KIND.last) ||
    isInitial(t) ||
    /^(?:\p{Lu}['’])?\p{Lu}\p{Ll}+(?:-\p{Lu}\p{Ll}+)?$/u.test(bare(t))
  );
}

function longestMulti(tokens: Token[], i: number, phrases: string[], longest: number): number {
  let best = i;
  let phrase = (tokens[i] as Token).lower;
  for (let j = i + 1; j < tokens.length && j - i < longest; j++) {
    phrase += ` ${(tokens[j] as Token).lower}`;
    if (phrases.includes(phrase)) best = j;
  }
  return best;
}

/** End offset without a trailing sentence period or comma (kept outside the span). */
function endOf(t: Token): number {
  const trimmed = t.text.replace(/[.,]+$/, '');
  // Initials keep their dot ("J."), everything else gives it back to the sentence.
  return /^\p{Lu}$/u.test(trimmed) ? t.end : t.start + trimmed.length;
}

const STREET_SUFFIX =
  'Passage|Rapid|Spur|Glens|Drives|Street|St|Avenue|Ave|Av|Road|Rd|Boulevard|Blvd|Lane|Ln|Drive|Dr|Court|Ct|Place|Pl|Square|Sq|Terrace|Ter|Way|Parkway|Pkwy|Highway|Hwy|Circle|Cir|Trail|Trl|Crescent|Cres|Close|Alley|Plaza|Route|Rte|Row|Walk|Hill|Hills|Park|Gardens|Loop|Pike|Ridge|Run|Crossing|Mews|Green|Grove|Junction|Port|Points?|Springs?|Station|Summit|Valley|View|Village|Ville|Vista|Estates?|Forks?|Fort|Freeway|Heights|Island|Isle|Keys?|Knolls?|Lakes?|Landing|Lights?|Locks?|Lodge|Manor|Meadows?|Mills?|Mission|Motorway|Mount|Mountain|Neck|Orchard|Oval|Pass|Path|Pines?|Plains?|Prairie|Ranch|Rapids|Rest|River|Shoals?|Shores?|Skyway|Spur|Stream|Track|Turnpike|Underpass|Unions?|Wall|Wells?|Bypass|Causeway|Center|Centre|Cliffs?|Club|Common|Corners?|Creek|Dale|Dam|Divide|Fields?|Flats?|Forest|Gateway|Glen|Harbor|Harbour|Haven|Bay|Beach|Bluffs?|Branch|Bridge|Brooks?|Burgs?|Camp|Canyon|Cape|Cove|Falls|Ferry|Ford|Expressway|Lake|Land|Loaf|Crest|Arcade|Greens|Grounds?|Hollow|Inlet|Mall|Overpass|Radial|Ramp|Shore|Squares|Throughway|Trace|Trafficway|Tunnel|Viaduct|Views|Villages?|Wharf|Gate|Strasse|Straße|Str|Brow|Brae|Rise|Mead|Chase|Croft|Parade|Wynd|Fold|Drove|Side|End|Yard|Hey';
const ADDRESS = new RegExp(
  String.raw`(?<![\w-])\d{1,6}[A-Za-z]?(?:[-/]\d{1,4})?,?[ \t]+(?:[NSEW]\.?[ \t]+|(?:North|South|East|West|Old|New)[ \t]+)?(?:(?:\p{Lu}[\p{L}'’.-]*|\d{1,3}(?:st|nd|rd|th))[ \t]+){1,4}(?:${STREET_SUFFIX})s?\b\.?(?:[ \t]+(?:[NSEW]{1,2}|North|South|East|West)\b)?` +
    String.raw`(?:,?[ \t]+(?:Apt\.?|Apartment|Suite|Ste\.?|Unit|Floor|Fl\.?|Room|Rm\.?|#)[ \t]*#?[A-Za-z0-9-]+)?` +
    String.raw`(?:(?:,[ \t]*|[ \t]*\n[ \t]*)(?:\p{Lu}[\p{L}'’.-]*[ \t]?){1,4},?[ \t]+(?:[A-Z]{2}|\p{Lu}\p{Ll}+(?:[ \t]\p{Lu}\p{Ll}+)?)[ \t]+\d{5}(?:-\d{4})?)?`,
  'gu',
);
// "Springfield, IL 62704", "London SW1A 1AA", "10115 Berlin", "PO Box 123".
const CITY_STATE_ZIP =
  /(?<![\w-])(?:\p{Lu}[\p{L}'’.-]*[ \t]){0,2}\p{Lu}[\p{L}'’.-]*,[ \t]*[A-Z]{2}[ \t]+\d{5}(?:-\d{4})?(?![\w-])/gu;
const STATE_ZIP = /[A-Z]{2}[ \t]+\d{5}/;
const UK_POSTCODE = /(?<![\w-])(?:GIR ?0AA|[A-PR-UWYZ][A-HK-Y]?\d[A-Z\d]? ?\d[ABD-HJLNP-UW-Z]{2})(?![\w-])/g;
const PO_BOX = /\bP\.?[ \t]?O\.?[ \t]+Box[ \t]+\d{1,7}\b/gi;
const ZIP_LABEL = /\b(?:zip|zip code|postal code|postcode|post code|plz)\s*[:#]?\s*$/i;
const ZIP = /(?<![\w-])(?:\d{5}(?:-\d{4})?|\d{4}|[A-Z]\d[A-Z] ?\d[A-Z]\d)(?![\w-])/g;

function findAddresses(text: string, out: PiiSpan[]): void {
  if (/\d/.test(text)) {
    eachMatch(ADDRESS, text, (m) => location(out, m.index, m.index + m[0].replace(/[.,\s]+$/, '').length));
    if (STATE_ZIP.test(text)) eachMatch(CITY_STATE_ZIP, text, (m) => location(out, m.index, m.index + m[0].length));
    eachMatch(UK_POSTCODE, text, (m) => location(out, m.index, m.index + m[0].length));
    eachMatch(PO_BOX, text, (m) => location(out, m.index, m.index + m[0].length));
    if (/zip|post|plz/i.test(text))
      eachMatch(ZIP, text, (m) => {
        if (contextBefore(text, m.index, ZIP_LABEL, 24)) location(out, m.index, m.index + m[0].length);
      });
  }
}
