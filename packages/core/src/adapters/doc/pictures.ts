import type { Bytes } from '../cfb/bytes.ts';
import { findBlip, type Picture } from '../cfb/officeart.ts';

/**
 * The raster image of an inline picture: the PICF at `offset` in the Data stream, then its
 * OfficeArt shape and BLIP ([MS-DOC] 2.9.192 PICFAndOfficeArtData). Metafiles and damage yield undefined.
 */
export function readPicture(data: Bytes | undefined, offset: number): Picture | undefined {
  if (!data || offset < 0 || offset + 6 > data.length) return undefined;
  try {
    const lcb = data.i32(offset);
    const cbHeader = data.u16(offset + 4);
    if (lcb <= cbHeader || cbHeader < 0x44 || offset + lcb > data.length) return undefined;
    let p = offset + cbHeader;
    // MM_SHAPEFILE pictures carry a picture name before the OfficeArt data.
    if (data.i16(offset + 6) === 0x66) p += 1 + data.u8(p);
    return findBlip(data, p, offset + lcb, 0);
  } catch {
    return undefined;
  }
}
