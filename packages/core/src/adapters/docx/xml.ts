import { attr, isElement, localName, type XmlElement } from '../../util/xml.ts';

/**
 * WordprocessingML navigation by local name: Strict and Transitional documents, and writers other
 * than Word, disagree on prefixes but never on local names.
 */
export function kids(el: XmlElement | undefined, local?: string): XmlElement[] {
  if (!el) return [];
  const out: XmlElement[] = [];
  for (const c of el.children) if (isElement(c) && (local === undefined || localName(c.name) === local)) out.push(c);
  return out;
}

export function kid(el: XmlElement | undefined, local: string): XmlElement | undefined {
  if (!el) return undefined;
  for (const c of el.children) if (isElement(c) && localName(c.name) === local) return c;
  return undefined;
}

export function walk(el: XmlElement | undefined, ...locals: string[]): XmlElement | undefined {
  let cur = el;
  for (const l of locals) cur = kid(cur, l);
  return cur;
}

/** Descendants with a local name, in document order, without descending into matches. */
export function find(el: XmlElement | undefined, local: string): XmlElement[] {
  const out: XmlElement[] = [];
  const visit = (e: XmlElement) => {
    for (const c of e.children) {
      if (!isElement(c)) continue;
      if (localName(c.name) === local) out.push(c);
      else visit(c);
    }
  };
  if (el) visit(el);
  return out;
}

export const ln = (el: XmlElement): string => localName(el.name);

/** The `w:val` of a property element. */
export const val = (el: XmlElement | undefined): string | undefined => attr(el, 'w:val');

/** On/off properties: present without a value means on; "0", "false", "off", "none" mean off. */
export function toggle(el: XmlElement | undefined): boolean | undefined {
  if (!el) return undefined;
  const v = val(el);
  return v === undefined || !/^(0|false|off|none)$/i.test(v);
}

/**
 * `mc:AlternateContent` holds the same content for several writer generations; exactly one branch
 * is read (the first Choice, else the Fallback) so nothing is output twice.
 */
export function pickAlternate(el: XmlElement): XmlElement | undefined {
  return kid(el, 'Choice') ?? kid(el, 'Fallback');
}
