import { type Chunk, type ParseData, type ParseProgress, type PasswordProblem, withPasswordHint } from '@docmill/core';
import { createOcrStage } from '@docmill/ocr';
import { createEngine } from '@docmill/pii';
import { downloadButton } from './download.ts';
import { type FormState, readOptions } from './options.ts';
import { drawPage } from './page-view.ts';

/**
 * The playground: files are read with the File API and parsed by docmill in this tab. Each file's
 * result stays in memory only; downloads are blob URLs.
 */

interface Entry {
  file: File;
  bytes?: Uint8Array;
  data?: ParseData;
  error?: string | undefined;
  /** A password-protected file that did not open: no password given yet, or a wrong one. */
  locked?: PasswordProblem | undefined;
  /** What the user typed into the password prompt for this file. */
  password?: string;
  ms?: number;
  status: 'queued' | 'parsing' | 'done' | 'failed' | 'locked';
}

/** How this page asks for a password, in the error of an encrypted file (withPasswordHint). */
const PASSWORD_HINT = 'in the field below';

/**
 * The engine always carries the PII stage's heuristics (`redactPII` mode `fast`). The model modes
 * need a token-classification model, which this static build does not ship: `?model=<folder URL>`
 * names one served by this page's own origin (the CSP lets nothing else through); it runs in a Web
 * Worker on onnxruntime-web from this build's `onnx/` folder. Scanned PDF pages and images are
 * OCR'd in one Web Worker (tesseract.js from this build's `tesseract/` folder): one keeps the tab
 * responsive, and a second would load its own models for little gain on the one-document-at-a-time
 * page.
 */
const modelUrl = new URLSearchParams(location.search).get('model') ?? undefined;
const engine = createEngine({
  stages: [createOcrStage({ workers: 1, assets: './tesseract/' })],
  ...(modelUrl ? { pii: { model: modelUrl } } : {}),
});
const redacts = true;
const MODEL_MODES = ['accurate', 'aggressive'];

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const entries: Entry[] = [];
let selected: Entry | undefined;
let running: Promise<void> = Promise.resolve();

function formState(): FormState {
  const state: FormState = {
    formats: [...document.querySelectorAll<HTMLInputElement>('input[name=format]:checked')].map((i) => i.value),
    pdfMode: $<HTMLSelectElement>('pdf-mode').value,
    piiMode: $<HTMLSelectElement>('pii-mode').value,
    piiStyle: $<HTMLSelectElement>('pii-style').value,
  };
  if ($<HTMLInputElement>('chunks-on').checked)
    state.chunks = {
      maxTokens: $<HTMLInputElement>('max-tokens').valueAsNumber,
      overlapTokens: $<HTMLInputElement>('overlap-tokens').valueAsNumber,
      tokenizer: $<HTMLSelectElement>('tokenizer').value,
    };
  return state;
}

function setupPii(): void {
  if (modelUrl) {
    $('pii-note').textContent =
      `fast: pattern and name-list heuristics, in this tab. accurate and aggressive add the NER model from ${modelUrl}, ` +
      'run in a Web Worker; if it cannot load, the engine refuses rather than return unredacted text.';
    return;
  }
  for (const option of $<HTMLSelectElement>('pii-mode').options) {
    if (MODEL_MODES.includes(option.value)) option.disabled = true;
  }
  $('pii-note').textContent =
    'fast: pattern and name-list heuristics, in this tab. accurate and aggressive need a local NER model, ' +
    'which this build does not include (open the page with ?model=<folder URL of one on this origin>); ' +
    'the engine refuses them rather than return unredacted text.';
}

function showProgress(p: ParseProgress, name: string): void {
  const bar = $<HTMLProgressElement>('progress');
  bar.hidden = false;
  bar.max = Math.max(1, p.total);
  bar.value = p.done;
  $('status').textContent = `${name}: ${p.stage} ${p.done} / ${p.total} ${p.unit}`;
}

async function parseEntry(entry: Entry): Promise<void> {
  entry.status = 'parsing';
  renderList();
  const started = performance.now();
  try {
    entry.bytes = new Uint8Array(await entry.file.arrayBuffer());
    entry.error = undefined;
    entry.locked = undefined;
    entry.data = await engine.parse(entry.bytes, readOptions(formState(), redacts), {
      filename: entry.file.name,
      contentType: entry.file.type || undefined,
      onProgress: (p) => showProgress(p, entry.file.name),
      ...(entry.password === undefined ? {} : { password: entry.password }),
    });
    entry.status = 'done';
  } catch (err) {
    const problem = (err as { password?: PasswordProblem }).password;
    entry.error = (withPasswordHint(err, PASSWORD_HINT) as Error).message;
    entry.locked = problem;
    entry.status = problem ? 'locked' : 'failed';
  }
  entry.ms = performance.now() - started;
  $<HTMLProgressElement>('progress').hidden = true;
  select(entry);
}

/** "3 files parsed, 1 failed, 1 needs a password.": each file counted once, under what became of it. */
function statusLine(): string {
  const count = (status: Entry['status']) => entries.filter((e) => e.status === status).length;
  const done = count('done');
  const parts = [`${done} file${done === 1 ? '' : 's'} parsed`];
  if (count('failed')) parts.push(`${count('failed')} failed`);
  if (count('locked')) parts.push(`${count('locked')} need${count('locked') === 1 ? 's' : ''} a password`);
  return `${parts.join(', ')}.`;
}

function enqueue(list: Entry[]): void {
  for (const entry of list) running = running.then(() => parseEntry(entry));
  running = running.then(() => {
    $('status').textContent = statusLine();
    document.body.dataset.state = 'idle';
  });
  document.body.dataset.state = 'busy';
}

function addFiles(files: FileList | File[]): void {
  const added = [...files].map((file): Entry => ({ file, status: 'queued' }));
  entries.push(...added);
  renderList();
  enqueue(added);
}

function renderList(): void {
  const list = $('file-list');
  list.replaceChildren(
    ...entries.map((e) => {
      const li = document.createElement('li');
      li.dataset.name = e.file.name;
      li.dataset.status = e.status;
      li.className = e === selected ? 'selected' : '';
      const status = e.status === 'locked' ? 'needs a password' : e.status;
      li.textContent = `${e.file.name} — ${status}${e.ms !== undefined ? ` (${e.ms.toFixed(0)} ms)` : ''}`;
      li.addEventListener('click', () => select(e, true));
      return li;
    }),
  );
}

function showTab(name: string): void {
  for (const b of document.querySelectorAll<HTMLButtonElement>('#tabs button')) {
    b.classList.toggle('active', b.dataset.tab === name);
  }
  for (const pane of document.querySelectorAll<HTMLElement>('.pane')) pane.hidden = pane.id !== `pane-${name}`;
}

/**
 * A file that did not parse shows why in place of the empty panes, at the top of the output; a
 * password-protected one asks for its password there and is parsed again with it.
 */
function showProblem(entry: Entry, byUser: boolean): void {
  const failed = entry.status === 'failed' || entry.status === 'locked';
  $('problem').hidden = !failed;
  $('tabs').hidden = failed;
  $('panes').hidden = failed;
  if (!failed) return;
  const name = entry.file.name;
  $('problem-title').textContent =
    entry.status === 'locked' ? `${name} is password-protected.` : `${name} could not be parsed.`;
  $('problem-message').textContent = entry.error ?? '';
  const form = $<HTMLFormElement>('password-form');
  form.hidden = entry.status !== 'locked';
  const input = $<HTMLInputElement>('password');
  input.value = '';
  // On a narrow screen the output sits below the controls: the reason is brought into view, and
  // the field takes the focus, when the user picks the file (not when a batch reaches it).
  if (byUser) $('problem').scrollIntoView({ block: 'nearest' });
  if (!form.hidden && byUser) input.focus();
}

/**
 * The Rendered pane: a fresh sandboxed frame per document. Chromium can leave a reused frame
 * unpainted after its pane was hidden (a failed file) and shown again with new content.
 */
function showRendered(html: string): void {
  const old = $<HTMLIFrameElement>('pane-rendered');
  const frame = document.createElement('iframe');
  frame.id = old.id;
  frame.className = old.className;
  frame.title = old.title;
  frame.setAttribute('sandbox', '');
  frame.hidden = old.hidden;
  frame.srcdoc = html;
  old.replaceWith(frame);
}

/** Tabs with nothing to show are disabled; an active one that becomes empty gives way to Rendered. */
function enableTab(name: string, on: boolean, why: string): void {
  const button = $('tabs').querySelector<HTMLButtonElement>(`[data-tab=${name}]`) as HTMLButtonElement;
  button.disabled = !on;
  button.title = on ? '' : why;
  if (!on && button.classList.contains('active')) showTab('rendered');
}

function select(entry: Entry, byUser = false): void {
  selected = entry;
  renderList();
  showProblem(entry, byUser);
  const data = entry.data;
  const name = entry.file.name;
  showRendered(data?.html ?? '');
  $('pane-raw').textContent = data?.markdown ?? '';
  $('pane-summary').textContent = data?.summary ?? '';
  enableTab('summary', Boolean(data?.summary), 'Tick “summary” before adding the file to get one.');
  $('pane-html').textContent = data?.html ?? '';
  $('pane-links').replaceChildren(
    ...(data?.links ?? []).map((l) => Object.assign(document.createElement('li'), { textContent: l })),
  );
  $('pane-metadata').textContent = data ? JSON.stringify(data.metadata, null, 2) : '';
  const warnings = data?.warning ? [data.warning] : [];
  $('warnings').replaceChildren(
    ...warnings.map((w) => Object.assign(document.createElement('li'), { textContent: w })),
  );
  $('timings').replaceChildren(
    ...entries
      .filter((e) => e.ms !== undefined)
      .map((e) => {
        const tr = document.createElement('tr');
        const pages = e.data?.metadata.numPages;
        tr.append(
          Object.assign(document.createElement('td'), { textContent: e.file.name }),
          Object.assign(document.createElement('td'), { textContent: `${(e.ms ?? 0).toFixed(0)} ms` }),
          Object.assign(document.createElement('td'), {
            textContent: pages ? `${((pages * 1000) / (e.ms || 1)).toFixed(1)} pages/s` : '',
          }),
        );
        return tr;
      }),
  );
  const base = name.replace(/\.[^.]+$/, '');
  $('downloads').replaceChildren(
    ...(data
      ? [
          downloadButton('Download Markdown', `${base}.md`, data.markdown ?? '', 'text/markdown'),
          downloadButton('Download HTML', `${base}.html`, data.html ?? '', 'text/html'),
          downloadButton('Download JSON', `${base}.json`, JSON.stringify(data, null, 2), 'application/json'),
          ...(data.chunks
            ? [
                downloadButton(
                  'Download chunks (JSONL)',
                  `${base}.jsonl`,
                  data.chunks.map((c) => `${JSON.stringify({ source: name, ...c })}\n`).join(''),
                  'application/jsonl',
                ),
              ]
            : []),
        ]
      : []),
  );
  setupPages(entry);
  setupChunks(entry);
}

/** "p. 2–3", "slide 4", "sheet Sales", "chapter 2 (Title)": where a chunk comes from. */
function placeOf(c: Chunk, slides: boolean): string {
  const parts: string[] = [];
  if (c.pages?.length) {
    const first = c.pages[0];
    const last = c.pages[c.pages.length - 1];
    parts.push(`${slides ? 'slide' : 'p.'} ${first === last ? first : `${first}–${last}`}`);
  }
  if (c.sheet !== undefined) parts.push(`sheet ${c.sheet}`);
  if (c.chapter !== undefined) parts.push(`chapter ${c.chapter}${c.chapterTitle ? ` (${c.chapterTitle})` : ''}`);
  return parts.join(' · ');
}

/** The Chunks tab: each chunk with its tokens, heading path and place; a PDF chunk opens its page. */
function setupChunks(entry: Entry): void {
  const chunks = entry.data?.chunks ?? [];
  const slides = entry.data?.blocks?.some((g) => g.kind === 'slide') ?? false;
  $('tabs').querySelector<HTMLButtonElement>('[data-tab=chunks]')!.disabled = chunks.length === 0;
  const budget = formState().chunks?.maxTokens;
  const total = chunks.reduce((n, c) => n + c.tokens, 0);
  $('chunk-summary').textContent = chunks.length
    ? `${chunks.length} chunks, ${total} tokens${budget ? `, ${Math.round((100 * total) / (chunks.length * budget))} % of the budget on average` : ''}.`
    : '';
  $('chunk-list').replaceChildren(
    ...chunks.map((c) => {
      const li = document.createElement('li');
      li.dataset.id = c.id;
      li.dataset.tokens = String(c.tokens);
      const head = document.createElement('div');
      head.className = 'chunk-head';
      head.textContent = [`${c.id}`, `${c.tokens} tokens`, c.type, placeOf(c, slides)].filter(Boolean).join(' · ');
      const path = document.createElement('div');
      path.className = 'chunk-path';
      path.textContent = c.headings.join(' › ');
      const text = document.createElement('pre');
      text.textContent = c.text;
      li.append(head, path, text);
      if (c.bbox?.length && isPdf(entry)) {
        li.classList.add('locatable');
        li.title = 'Show on the PDF page';
        li.addEventListener('click', () => showChunkOnPage(entry, c));
      }
      return li;
    }),
  );
}

const isPdf = (entry: Entry) => entry.data?.metadata.contentType === 'application/pdf';

/** Opens the PDF page view at the chunk's first page with the chunk shaded and its blocks marked. */
function showChunkOnPage(entry: Entry, c: Chunk): void {
  const first = c.bbox?.[0];
  if (!first) return;
  const pick = $<HTMLSelectElement>('page-select');
  pick.value = String(first.page);
  const page = (entry.data?.blocks ?? []).find((p) => p.kind === 'page' && p.pageNumber === first.page);
  if (!page || !entry.bytes) return;
  showTab('pages');
  const boxes = (c.bbox ?? []).filter((b) => b.page === first.page).map((b) => b.bbox);
  const canvas = $<HTMLCanvasElement>('page-canvas');
  canvas.dataset.highlight = c.id;
  void drawPage(canvas, entry.bytes, page, { boxes, blocks: new Set(c.blocks ?? []) });
}

function setupPages(entry: Entry): void {
  const pick = $<HTMLSelectElement>('page-select');
  // Every format has blocks now; only a PDF's pages can be rendered here.
  const pages = isPdf(entry) ? (entry.data?.blocks ?? []).filter((p) => p.kind === 'page') : [];
  pick.replaceChildren(
    ...pages.map((p) =>
      Object.assign(document.createElement('option'), {
        value: String(p.pageNumber),
        textContent: String(p.pageNumber),
      }),
    ),
  );
  enableTab('pages', pages.length > 0, 'PDF files only.');
  const draw = () => {
    const page = pages.find((p) => String(p.pageNumber) === pick.value);
    const canvas = $<HTMLCanvasElement>('page-canvas');
    delete canvas.dataset.highlight;
    if (page && entry.bytes) void drawPage(canvas, entry.bytes, page);
  };
  pick.onchange = draw;
  if (pages.length) draw();
  else $<HTMLCanvasElement>('page-canvas').getContext('2d')?.reset();
}

function wire(): void {
  setupPii();
  const input = $<HTMLInputElement>('file-input');
  input.addEventListener('change', () => {
    if (input.files?.length) addFiles(input.files);
    input.value = '';
  });
  const drop = $('drop');
  drop.addEventListener('dragover', (e) => {
    e.preventDefault();
    drop.classList.add('over');
  });
  drop.addEventListener('dragleave', () => drop.classList.remove('over'));
  drop.addEventListener('drop', (e) => {
    e.preventDefault();
    drop.classList.remove('over');
    if (e.dataTransfer?.files.length) addFiles(e.dataTransfer.files);
  });
  for (const b of document.querySelectorAll<HTMLButtonElement>('#tabs button')) {
    b.addEventListener('click', () => showTab(b.dataset.tab ?? 'rendered'));
  }
  $('password-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const entry = selected;
    if (entry?.status !== 'locked') return;
    entry.password = $<HTMLInputElement>('password').value;
    entry.status = 'queued';
    renderList();
    enqueue([entry]);
  });
  document.body.dataset.state = 'idle';
}

wire();
