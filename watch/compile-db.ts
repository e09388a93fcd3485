// The CUDA units of a project, from a compile_commands.json (CMake writes the nvcc command of every
// .cu there with CMAKE_EXPORT_COMPILE_COMMANDS=ON).

import { existsSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { splitCommand } from './plan';

export interface WatchUnit {
  /** Absolute path of the .cu. */
  file: string;
  /** The build's working directory. */
  directory: string;
  /** The build command (nvcc and its arguments). */
  command: string[];
  /** Environment the build ran nvcc with, over watch's own (NVCC_APPEND_FLAGS…; learned units only). */
  env?: Record<string, string>;
}

interface Entry { directory: string; file: string; command?: string; arguments?: string[] }

/** The compile_commands.json that PATH names: the file itself, PATH/…, or PATH/build/…. */
export function findCompileDb(path: string): string | undefined {
  const p = resolve(path);
  try {
    if (statSync(p).isFile()) return p;
  } catch { return undefined; }
  for (const c of [join(p, 'compile_commands.json'), join(p, 'build', 'compile_commands.json')]) if (existsSync(c)) return c;
  return undefined;
}

const isCuda = (e: Entry, argv: string[]) =>
  /\.cu$/.test(e.file) || argv.some((a, i) => (a === '-x' && argv[i + 1] === 'cu') || a === '-xcu');

/** The CUDA units of a compile_commands.json (throws with a readable message on a bad file). */
export function loadUnits(db: string): WatchUnit[] {
  let entries: Entry[];
  try {
    entries = JSON.parse(readFileSync(db, 'utf8')) as Entry[];
  } catch (e) {
    throw new Error(`cannot read ${db}: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (!Array.isArray(entries)) throw new Error(`${db} is not a compile_commands.json (expected an array)`);
  const units: WatchUnit[] = [];
  const seen = new Set<string>();
  for (const e of entries) {
    if (!e || typeof e.directory !== 'string' || typeof e.file !== 'string') continue;
    const argv = e.arguments ?? (typeof e.command === 'string' ? splitCommand(e.command, {}) : []);
    if (argv.length === 0 || !isCuda(e, argv)) continue;
    const file = isAbsolute(e.file) ? e.file : resolve(e.directory, e.file);
    const key = `${file}\0${e.directory}\0${argv.join('\0')}`;
    if (seen.has(key)) continue;
    seen.add(key);
    units.push({ file, directory: e.directory, command: argv });
  }
  return units;
}
