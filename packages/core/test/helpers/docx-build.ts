import JSZip from 'jszip';

export const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';

/** A minimal package: document body plus optional extra parts (rels are written for the known ones). */
export async function docx(bodyXml: string, parts: Record<string, string> = {}): Promise<Uint8Array> {
  const zip = new JSZip();
  zip.file('[Content_Types].xml', '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>');
  zip.file(
    'word/document.xml',
    `<w:document xmlns:w="${W}" xmlns:r="r" xmlns:m="m"><w:body>${bodyXml}</w:body></w:document>`,
  );
  const rels = Object.keys(parts)
    .map((name, i) => {
      const type = name.replace(/^word\//, '').replace(/\.xml$/, '');
      return `<Relationship Id="rIdX${i}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/${type}" Target="${name.replace(/^word\//, '')}"/>`;
    })
    .join('');
  zip.file('word/_rels/document.xml.rels', `<Relationships>${rels}</Relationships>`);
  for (const [k, v] of Object.entries(parts)) zip.file(k, v);
  return zip.generateAsync({ type: 'uint8array' });
}
