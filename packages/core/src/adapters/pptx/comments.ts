import { paragraph } from '../../tree/build.ts';
import type { Block } from '../../tree/types.ts';
import { attr, deep, kid, kids, localName, textOf, type XmlElement } from '../../util/xml.ts';
import type { Package, Rel } from './package.ts';

interface Author {
  name: string;
  initials: string;
}

/** Legacy (commentAuthors.xml, numeric ids) and modern (authors.xml, GUIDs) author lists together. */
async function authors(pkg: Package): Promise<Map<string, Author>> {
  const out = new Map<string, Author>();
  for (const part of ['ppt/commentAuthors.xml', 'ppt/authors.xml']) {
    const doc = await pkg.xml(part);
    for (const a of kids(doc).filter((e) => /author$/i.test(localName(e.name)))) {
      const id = attr(a, 'id');
      if (id) out.set(id, { name: attr(a, 'name') ?? '', initials: attr(a, 'initials') ?? '' });
    }
  }
  return out;
}

function commentText(cm: XmlElement): string {
  const legacy = kid(cm, 'text');
  const body = legacy
    ? textOf(legacy)
    : deep(kid(cm, 'txBody'), 't')
        .map((t) => textOf(t))
        .join(' ');
  return body.replace(/\s+/g, ' ').trim();
}

/** Review comments attached to a slide, one paragraph each, labelled with author and time. */
export async function commentBlocks(pkg: Package, rels: Map<string, Rel>): Promise<Block[]> {
  const parts = [...rels.values()].filter(
    (r) => !r.external && /comments?$/i.test(r.type) && r.type !== 'commentAuthors',
  );
  if (!parts.length) return [];
  const people = await authors(pkg);
  const out: Block[] = [];
  for (const rel of parts) {
    const doc = await pkg.xml(rel.target);
    for (const cm of deep(doc, 'cm')) {
      const body = commentText(cm);
      if (!body) continue;
      const who = people.get(attr(cm, 'authorId') ?? '');
      const name = who ? `${who.name}${who.initials ? ` (${who.initials})` : ''}` : 'unknown';
      const when = attr(cm, 'dt') ?? attr(cm, 'created');
      out.push(paragraph(`[author: ${name}${when ? `, time: ${when}` : ''}]: ${body}`));
    }
  }
  return out;
}
