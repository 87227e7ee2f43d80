export interface Row {
  tool: string;
  ours: boolean;
  /** Units per second (pages/s or MB/s); null when the tool failed. */
  rate: number | null;
  /** Ratio to the suite's baseline tool. */
  ratio: number | null;
  rme: number | null;
  peakRssMB: number | null;
  rssRatio: number | null;
  error?: string;
}

export interface SuiteReport {
  suite: string;
  title: string;
  unit: string;
  baseline: string;
  corpus: string;
  rows: Row[];
  when: string;
  machine: string;
}

const f = (x: number | null, d = 2) => (x === null ? '—' : x.toFixed(d));

export function markdownReport(r: SuiteReport): string {
  const lines = [
    `## ${r.title}`,
    '',
    `Suite \`${r.suite}\`, ${r.when}, ${r.machine}. Corpus: ${r.corpus}. Ratios are against **${r.baseline}** measured in the same run.`,
    '',
    `| tool | ${r.unit}/s | ± % | × ${r.baseline} | peak RSS MB | RSS × ${r.baseline} |`,
    '| --- | --- | --- | --- | --- | --- |',
    ...r.rows.map(
      (row) =>
        `| ${row.ours ? `**${row.tool}**` : row.tool} | ${f(row.rate)} | ${f(row.rme, 1)} | ${f(row.ratio)} | ${f(row.peakRssMB, 0)} | ${f(row.rssRatio)} |${row.error ? ` error: ${row.error}` : ''}`,
    ),
    '',
    `![${r.suite}](${r.suite}.svg)`,
    '',
  ];
  return lines.join('\n');
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/** Horizontal bar chart of the rates, ours highlighted. */
export function svgChart(r: SuiteReport): string {
  const rows = r.rows.filter((x) => x.rate !== null);
  const max = Math.max(...rows.map((x) => x.rate as number), 1e-9);
  const barH = 22;
  const gap = 8;
  const left = 190;
  const width = 720;
  const height = 40 + rows.length * (barH + gap);
  const bars = rows.map((row, i) => {
    const y = 30 + i * (barH + gap);
    const w = ((row.rate as number) / max) * (width - left - 110);
    return [
      `<text x="${left - 8}" y="${y + 15}" text-anchor="end" font-size="12">${esc(row.tool)}</text>`,
      `<rect x="${left}" y="${y}" width="${w.toFixed(1)}" height="${barH}" fill="${row.ours ? '#d9480f' : '#868e96'}"/>`,
      `<text x="${left + w + 6}" y="${y + 15}" font-size="12">${(row.rate as number).toFixed(1)} ${esc(r.unit)}/s${row.ratio !== null ? ` (${row.ratio.toFixed(2)}×)` : ''}</text>`,
    ].join('');
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif"><text x="10" y="18" font-size="14" font-weight="bold">${esc(r.title)}</text>${bars.join('')}</svg>\n`;
}
