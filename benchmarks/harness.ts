import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** One document of a suite's corpus, with the amount of work it stands for (pages or bytes). */
export interface BenchInput {
  name: string;
  bytes: Uint8Array;
  /** Pages for page-based suites, bytes for MB/s suites. */
  units: number;
}

export interface BenchTool {
  name: string;
  /** True for docmill's own entries; peers are everything else measured in the same run. */
  ours: boolean;
  /** Converts one input; must do the whole job the tool does for a user (no skipped steps). */
  run(input: BenchInput): Promise<unknown>;
  /** Leave out of the peak-RSS pass (the tool's memory is not this process's, e.g. a browser). */
  skipRss?: boolean;
  /** Stops what the tool started (a browser, a server) once the suite is done. */
  close?(): Promise<void>;
}

export interface Suite {
  name: string;
  title: string;
  unit: 'pages' | 'MB';
  /** The reference tool ratios are given against. */
  baseline: string;
  /** Corpus, loaded once; empty when the corpus is absent (the suite is then skipped). */
  inputs(): Promise<BenchInput[]>;
  tools(): Promise<BenchTool[]>;
  /** A single file to measure each tool's peak RSS on, in a fresh child process. */
  rssInput?: string;
  /** Rounds: passes over the corpus per tool, each round running every tool once in rotated order. */
  iterations?: number;
}

export const projectRoot = resolve(import.meta.dirname, '..');
export const corpusRoot = resolve(projectRoot, '../shared/corpus');

/** Reads every file of a corpus folder with one of the extensions, sorted by name. */
export function readCorpus(folder: string, exts: string[]): { name: string; bytes: Uint8Array }[] {
  const dir = join(corpusRoot, folder);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => exts.some((e) => f.toLowerCase().endsWith(e)))
    .sort()
    .map((name) => ({ name, bytes: new Uint8Array(readFileSync(join(dir, name))) }));
}

/** A fresh copy: pdf.js and others detach or transfer the buffers they are given. */
export const copy = (b: Uint8Array): Uint8Array => new Uint8Array(b);
