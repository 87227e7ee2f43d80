import { attr, kid, localName, type XmlElement } from '../../util/xml.ts';

export { find, kid, kids, walk } from '../../util/xml.ts';

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
