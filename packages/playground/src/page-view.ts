import { openPdf, type PageBlocks } from '@docmill/core';

/** Colours per block label, so headings, tables and text are told apart at a glance. */
const COLOURS: Record<string, string> = {
  title: '#d62728',
  section_header: '#ff7f0e',
  table: '#2ca02c',
  list: '#9467bd',
  picture: '#8c564b',
  formula: '#e377c2',
  text: '#1f77b4',
};

/**
 * Renders one PDF page with PDFium (in this tab) and draws the engine's block boxes over it. Boxes
 * are in PDF points with a top-left origin, the render in pixels at `dpi`: one scale maps both.
 * With `highlight` (a chunk's boxes on this page and its block ids), the chunk is shaded and its
 * blocks drawn boldly, the other blocks faintly.
 */
export async function drawPage(
  canvas: HTMLCanvasElement,
  bytes: Uint8Array,
  page: PageBlocks,
  highlight?: { boxes: [number, number, number, number][]; blocks: ReadonlySet<string> },
  dpi = 96,
): Promise<void> {
  const pdf = await openPdf(bytes);
  try {
    const img = await pdf.render(page.pageNumber, dpi);
    canvas.width = img.width;
    canvas.height = img.height;
    const ctx = canvas.getContext('2d');
    if (!ctx) return;
    ctx.putImageData(new ImageData(new Uint8ClampedArray(img.data), img.width, img.height), 0, 0);
    const scale = page.width ? img.width / page.width : dpi / 72;
    if (highlight) {
      ctx.fillStyle = 'rgba(255, 200, 0, 0.25)';
      for (const [x0, y0, x1, y1] of highlight.boxes)
        ctx.fillRect(x0 * scale - 3, y0 * scale - 3, (x1 - x0) * scale + 6, (y1 - y0) * scale + 6);
    }
    ctx.font = '11px sans-serif';
    for (const item of page.items) {
      if (!item.bbox) continue;
      const [x0, y0, x1, y1] = item.bbox;
      const colour = COLOURS[item.label] ?? '#17becf';
      const mine = highlight?.blocks.has(item.id);
      ctx.globalAlpha = highlight && !mine ? 0.3 : 1;
      ctx.lineWidth = mine ? 4 : 2;
      ctx.strokeStyle = colour;
      ctx.fillStyle = colour;
      ctx.strokeRect(x0 * scale, y0 * scale, (x1 - x0) * scale, (y1 - y0) * scale);
      ctx.fillText(item.label, x0 * scale + 2, Math.max(10, y0 * scale - 2));
    }
    ctx.globalAlpha = 1;
  } finally {
    await pdf.close();
  }
}
