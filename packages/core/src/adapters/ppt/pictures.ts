import * as b from '../../tree/build.ts';
import type { Image } from '../../tree/types.ts';
import type { Bytes } from '../cfb/bytes.ts';
import { dataUri, findBlip, type Picture } from '../cfb/officeart.ts';
import type { AdapterContext } from '../types.ts';
import { children, type Rec, RT } from './records.ts';

/** BStore entries (FBSE records) of the presentation's drawing group, in blip-index order. */
function bstore(s: Bytes, doc: Rec | undefined): Rec[] {
  if (!doc) return [];
  const group = children(s, doc.body, doc.end).find((r) => r.type === RT.ppDrawingGroup);
  const dgg = group && children(s, group.body, group.end).find((r) => r.type === RT.dggContainer);
  const store = dgg && children(s, dgg.body, dgg.end).find((r) => r.type === RT.bstoreContainer);
  return store ? children(s, store.body, store.end).filter((r) => r.type === RT.fbse) : [];
}

/**
 * Image nodes for picture shapes: the BLIP is embedded in its FBSE or stored at `foDelay` in the
 * Pictures stream ([MS-PPT] 2.1.3). Raster pictures become data URIs when base64 images are kept;
 * everything else stays a reference the renderer prints as a placeholder.
 */
export function pictureResolver(
  s: Bytes,
  doc: Rec | undefined,
  pictures: Bytes | undefined,
  ctx: AdapterContext,
): (blip: number) => Image {
  const entries = bstore(s, doc);
  return (blip) => {
    const entry = entries[blip - 1];
    if (!entry || entry.end - entry.body < 36) return b.image('', { ref: 'Pictures' });
    const foDelay = s.u32(entry.body + 28);
    const nameLen = s.u8(entry.body + 33);
    let found: Picture | undefined;
    try {
      if (entry.end > entry.body + 36 + nameLen) found = findBlip(s, entry.body + 36 + nameLen, entry.end, 0);
      else if (pictures && foDelay + 8 <= pictures.length) {
        const end = foDelay + 8 + pictures.u32(foDelay + 4);
        if (end <= pictures.length) found = findBlip(pictures, foDelay, end, 0);
      }
    } catch {
      found = undefined;
    }
    const node = b.image('', { ref: `Pictures#${foDelay}` });
    if (found) {
      node.mime = found.mime;
      const url = ctx.options.removeBase64Images ? undefined : dataUri(found);
      if (url) node.url = url;
    }
    return node;
  };
}
