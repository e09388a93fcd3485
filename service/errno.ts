// Error names for messages: Node gives file-system errors as names (`EACCES`), lmdb-js gives numbers
// (`13`, `30`, `-30796`). Users see one spelling, the symbolic name, whichever layer failed.

import { constants } from 'node:os';

/** LMDB's own error numbers (lmdb.h), which are not errno values. */
const LMDB_ERRORS: Record<number, string> = {
  [-30799]: 'MDB_KEYEXIST', [-30798]: 'MDB_NOTFOUND', [-30797]: 'MDB_PAGE_NOTFOUND', [-30796]: 'MDB_CORRUPTED',
  [-30795]: 'MDB_PANIC', [-30794]: 'MDB_VERSION_MISMATCH', [-30793]: 'MDB_INVALID', [-30792]: 'MDB_MAP_FULL',
  [-30791]: 'MDB_DBS_FULL', [-30790]: 'MDB_READERS_FULL', [-30789]: 'MDB_TLS_FULL', [-30788]: 'MDB_TXN_FULL',
  [-30787]: 'MDB_CURSOR_FULL', [-30786]: 'MDB_PAGE_FULL', [-30785]: 'MDB_MAP_RESIZED', [-30784]: 'MDB_INCOMPATIBLE',
  [-30783]: 'MDB_BAD_RSLOT', [-30782]: 'MDB_BAD_TXN', [-30781]: 'MDB_BAD_VALSIZE', [-30780]: 'MDB_BAD_DBI',
};

/** LMDB errors that mean the file's contents are damaged (as opposed to the disk, permissions or limits). */
const CORRUPTION = new Set(['MDB_PAGE_NOTFOUND', 'MDB_CORRUPTED', 'MDB_PANIC', 'MDB_VERSION_MISMATCH', 'MDB_INVALID', 'MDB_BAD_TXN', 'MDB_BAD_RSLOT']);

let errnoNames: Map<number, string> | undefined;

function nameOfNumber(n: number): string | undefined {
  if (LMDB_ERRORS[n]) return LMDB_ERRORS[n];
  if (!errnoNames) {
    errnoNames = new Map();
    for (const [name, v] of Object.entries(constants.errno)) if (!errnoNames.has(v)) errnoNames.set(v, name);
  }
  return errnoNames.get(n > 0 ? n : -n);
}

/** `EROFS`, `MDB_CORRUPTED`, … for an error from Node or lmdb-js; its message when it has no number. */
export function errorName(e: unknown): string {
  const err = e as { code?: unknown; errno?: unknown; message?: unknown };
  if (typeof err?.code === 'string' && err.code !== '') return err.code;
  for (const n of [err?.code, err?.errno]) {
    if (typeof n === 'number') return nameOfNumber(n) ?? String(n);
  }
  // lmdb-js sometimes only says it in the message ("MDB_BAD_TXN: Transaction must abort …").
  const m = typeof err?.message === 'string' ? /^(MDB_[A-Z_]+)\b/.exec(err.message) : null;
  if (m) return m[1]!;
  return e instanceof Error ? e.message : String(e);
}

/** True when the error says the store file itself is damaged. */
export function isCorruption(e: unknown): boolean {
  return CORRUPTION.has(errorName(e));
}
