import { throwIfAborted } from '../../errors.ts';
import { heading, root, section } from '../../tree/build.ts';
import type { Section } from '../../tree/types.ts';
import { append } from '../../util/arrays.ts';
import { openZip } from '../../util/zip.ts';
import { isSkippable, nestUnder, skipReason } from '../common/embedded.ts';
import type { Adapter, AdapterContext } from '../types.ts';
import { gunzip } from './gzip.ts';
import { readTar } from './tar.ts';

/**
 * Archives: `.zip`, `.tar`, `.tar.gz`/`.tgz` (and one gzipped document, `report.pdf.gz`). Each
 * member the engine reads becomes a `file` section headed by its path, in archive order, parsed
 * through ctx.embed like any upload (nested archives too, down to `maxNestingDepth`, sharing the
 * upload's member, byte and output budgets); the rest are listed as skipped in one warning. Zips
 * go through SafeZip (entry count, declared total, per-entry ratio, metered inflation); gzip is
 * metered the same way.
 */

/** Skipped members named in the warning; beyond, only counted. */
const MAX_LISTED = 50;

interface Member {
  path: string;
  read: () => Promise<Uint8Array>;
}

/** Operating-system litter that is never a document: macOS resource forks, Finder and Windows files. */
const LITTER = /(^|\/)(__MACOSX\/|\._|\.DS_Store$|Thumbs\.db$|desktop\.ini$)/;

async function members(bytes: Uint8Array, ctx: AdapterContext): Promise<Member[]> {
  if (ctx.kind === 'zip') {
    const zip = await openZip(bytes, ctx.limits, ctx.signal, ctx.warn);
    return zip.names.map((path) => ({
      path,
      read: async () => (await zip.bytes(path)) ?? new Uint8Array(0),
    }));
  }
  let data = bytes;
  // The gzipped file's own name is its label without `.gz` (`.tgz` is `.tar`); other labels say nothing.
  const label = ctx.filename?.replace(/^.*[\\/]/, '') ?? '';
  let inner = /\.(tgz|gz)$/i.test(label)
    ? label.replace(/\.(tgz|gz)$/i, (m) => (m.toLowerCase() === '.tgz' ? '.tar' : ''))
    : undefined;
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) data = await gunzip(bytes, ctx.limits, ctx.signal);
  else inner = undefined;
  const isTar =
    (data.length >= 512 && new TextDecoder('latin1').decode(data.subarray(257, 262)) === 'ustar') ||
    /\.tar$/i.test(inner ?? '');
  if (!isTar && data !== bytes) {
    // One gzipped document: parsed as what it is, under its name without `.gz`.
    const name = inner && !/\.tar$/i.test(inner) ? inner : 'document';
    return [{ path: name, read: async () => data }];
  }
  const { entries, truncated } = readTar(data, ctx.limits.maxZipEntries);
  if (truncated)
    ctx.warn(
      `The tar archive is cut short (no end-of-archive blocks): its ${entries.length} complete entr(y/ies) were read; whatever followed is lost.`,
    );
  return entries
    .filter((e) => e.kind === 'file')
    .map((e) => ({ path: e.path, read: async () => e.bytes ?? new Uint8Array(0) }));
}

export const adapter: Adapter = {
  name: 'archive',
  kinds: ['zip', 'tar'],
  async parse(bytes, ctx) {
    throwIfAborted(ctx.signal);
    const list = (await members(bytes, ctx)).filter((m) => !LITTER.test(m.path));
    if (!list.length) ctx.warn('The archive holds no files.');
    const sections: Section[] = [];
    const skipped: string[] = [];
    for (const [i, m] of list.entries()) {
      throwIfAborted(ctx.signal);
      ctx.progress?.(i, list.length, 'parts');
      if (!ctx.embed) {
        skipped.push(`${m.path} (members are read only inside the engine)`);
        continue;
      }
      try {
        const doc = await ctx.embed(await m.read(), m.path);
        const blocks = append([heading(1, m.path)], nestUnder(doc.tree.children, 1));
        sections.push(section('file', sections.length + 1, blocks, { name: m.path }));
      } catch (err) {
        if (!isSkippable(err, ctx.signal)) throw err;
        skipped.push(`${m.path} (${skipReason(err, m.path)})`);
      }
    }
    ctx.progress?.(list.length, list.length, 'parts');
    if (skipped.length) {
      const more = skipped.length > MAX_LISTED ? `; and ${skipped.length - MAX_LISTED} more` : '';
      ctx.warn(`${skipped.length} archive member(s) not read: ${skipped.slice(0, MAX_LISTED).join('; ')}${more}.`);
    }
    return { tree: root(sections, { numPages: sections.length }) };
  },
};
