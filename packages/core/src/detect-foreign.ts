/**
 * Signatures of common files that are not documents (programs, archives, media), so that a file
 * named `report.pdf` that is really an executable is refused as what it is, instead of being
 * handed to the PDF reader and reported as a damaged PDF.
 */
const signatures: { at: number; bytes: number[] | string; what: string }[] = [
  { at: 0, bytes: [0x7f, 0x45, 0x4c, 0x46], what: 'an ELF executable or shared library (a Linux or Unix program)' },
  { at: 0, bytes: [0xcf, 0xfa, 0xed, 0xfe], what: 'a Mach-O executable (a macOS program)' },
  { at: 0, bytes: [0xce, 0xfa, 0xed, 0xfe], what: 'a Mach-O executable (a macOS program)' },
  { at: 0, bytes: [0xca, 0xfe, 0xba, 0xbe], what: 'a Java class file or a macOS universal binary' },
  { at: 0, bytes: 'MZ', what: 'a Windows executable or DLL' },
  { at: 0, bytes: [0x00, 0x61, 0x73, 0x6d], what: 'a WebAssembly module' },
  { at: 0, bytes: [0x1f, 0x8b], what: 'gzip-compressed data' },
  { at: 0, bytes: 'BZh', what: 'bzip2-compressed data' },
  { at: 0, bytes: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], what: 'xz-compressed data' },
  { at: 0, bytes: [0x28, 0xb5, 0x2f, 0xfd], what: 'zstd-compressed data' },
  { at: 0, bytes: [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c], what: 'a 7-Zip archive' },
  { at: 0, bytes: 'Rar!\x1a\x07', what: 'a RAR archive' },
  { at: 257, bytes: 'ustar', what: 'a tar archive' },
  { at: 0, bytes: 'SQLite format 3\0', what: 'an SQLite database' },
  { at: 0, bytes: 'ID3', what: 'an MP3 audio file' },
  { at: 4, bytes: 'ftyp', what: 'an MP4/QuickTime video or audio file' },
  { at: 0, bytes: 'OggS', what: 'an Ogg audio or video file' },
  { at: 0, bytes: 'fLaC', what: 'a FLAC audio file' },
  { at: 0, bytes: [0x1a, 0x45, 0xdf, 0xa3], what: 'a Matroska/WebM video' },
  { at: 0, bytes: 'wOFF', what: 'a WOFF font' },
  { at: 0, bytes: 'wOF2', what: 'a WOFF2 font' },
  { at: 0, bytes: 'OTTO', what: 'an OpenType font' },
];

const matches = (b: Uint8Array, at: number, sig: number[] | string) => {
  const codes = typeof sig === 'string' ? [...sig].map((c) => c.charCodeAt(0)) : sig;
  return b.length >= at + codes.length && codes.every((v, i) => b[at + i] === v);
};

/**
 * What a file that is no document looks like, when its first bytes say so. Short signatures are
 * trusted only in binary files: a CSV may well start with "MZ" or "ID3".
 */
export function foreignType(bytes: Uint8Array, binary: boolean): string | undefined {
  if (matches(bytes, 0, '%!PS-Adobe')) return 'a PostScript file';
  if (!binary) return undefined;
  if (matches(bytes, 0, 'RIFF')) {
    if (matches(bytes, 8, 'WAVE')) return 'a WAV audio file';
    if (matches(bytes, 8, 'AVI ')) return 'an AVI video';
  }
  return signatures.find((s) => matches(bytes, s.at, s.bytes))?.what;
}
