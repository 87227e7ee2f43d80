import { findEmails, findPhones } from './contact.ts';
import { findFinancial } from './financial.ts';
import type { NameLexicon } from './lexicon.ts';
import { findNamesAndPlaces } from './names.ts';
import { findSecrets } from './secrets.ts';
import type { PiiEntity, PiiSpan } from './types.ts';

/**
 * Every heuristic detector over one text. PERSON and LOCATION need the lexicon; without it (not
 * loaded yet) they are skipped, so callers load it first (`loadNameLexicon`).
 */
export function detectHeuristic(text: string, entities: ReadonlySet<PiiEntity>, lex?: NameLexicon): PiiSpan[] {
  const out: PiiSpan[] = [];
  if (entities.has('SECRET')) findSecrets(text, out);
  if (entities.has('EMAIL')) findEmails(text, out);
  if (entities.has('FINANCIAL')) findFinancial(text, out);
  if (entities.has('PHONE')) findPhones(text, out);
  const person = entities.has('PERSON');
  const place = entities.has('LOCATION');
  if (lex && (person || place)) findNamesAndPlaces(text, lex, person, place, out);
  return out.filter((s) => entities.has(s.entity) && s.end > s.start);
}
