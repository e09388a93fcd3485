// The coverage corpus manifest (bench/corpus/manifest.json): which public repositories, at which commit, and
// which of their units with which nvcc flags and tier. Sources live in an ignored directory, never in the repo.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT } from '../../test/helpers/tools';

export type Tier = 'C-like' | 'C++' | 'library-heavy';
export const TIERS: readonly Tier[] = ['C-like', 'C++', 'library-heavy'];

export interface RepoEntry { commit: string; url: string }
export interface CorpusUnit {
  repo: string;
  /** Path of the unit inside its repository. */
  path: string;
  /** nvcc flags besides -c/-ptx/-arch and the output; -I paths are relative to the repository root. */
  flags: string[];
  tier: Tier;
}
export interface Manifest {
  /** What the corpus is and how it was chosen (for the reader of the JSON). */
  about: string;
  arch: string;
  repos: Record<string, RepoEntry>;
  /** Units the generator dropped because stock nvcc itself fails on them, by reason. */
  dropped: Record<string, number>;
  units: CorpusUnit[];
}

export const MANIFEST_FILE = path.join(REPO_ROOT, 'bench', 'corpus', 'manifest.json');

/** The ignored directory that holds the fetched sources (src/) and the cached stock outputs (ref/). */
export function corpusDir(): string {
  return process.env.PTXD_CORPUS_DIR ? path.resolve(process.env.PTXD_CORPUS_DIR) : path.join(REPO_ROOT, '.corpus');
}

/** Where a repository's checkout lives: <corpus>/src/<owner>+<name>. */
export function repoDir(repo: string): string {
  return path.join(corpusDir(), 'src', repo.replace('/', '+'));
}

export function loadManifest(file = process.env.PTXD_CORPUS_MANIFEST ?? MANIFEST_FILE): Manifest {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest;
}

/** A unit's stable name, used in results and by --filter: <owner>/<name>:<path>. */
export function unitId(u: CorpusUnit): string {
  return `${u.repo}:${u.path}`;
}
