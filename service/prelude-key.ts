// The prelude of a unit, for remembering that a unit's headers alone are beyond ptxd: the .ii text up to
// the last return from an #include into the main file (`# N "<main>" 2`), with the main file's name
// (which differs between units) replaced. Two units with the same prelude reach the same header
// declarations in the same order, so a construct ptxd cannot compile in one prelude's headers is met
// again by every unit that has it (service/unit.ts preludeMemo). Pure code, no I/O.

import { createHash } from 'node:crypto';

/** The prelude's end (offset of the last return into the main file) and its hash; undefined when there is none. */
export function preludeOf(text: string): { end: number; hash: string } | undefined {
  const nl = text.indexOf('\n');
  const first = /^# \d+ ("[^"\n]*")/.exec(text.slice(0, nl < 0 ? text.length : nl));
  if (!first) return undefined;
  const main = first[1]!;
  const at = text.lastIndexOf(`${main} 2\n`);
  if (at < 0) return undefined;
  const end = text.lastIndexOf('\n', at) + 1;
  if (!/^# \d+ $/.test(text.slice(end, at))) return undefined;
  const h = createHash('sha256');
  let from = 0;
  // hashed piecewise: no copy of a 10 MB prefix
  for (let i = text.indexOf(main, 0); i >= 0 && i < end; i = text.indexOf(main, from)) {
    h.update(text.slice(from, i));
    h.update('\u0001main\u0001');
    from = i + main.length;
  }
  h.update(text.slice(from, end));
  return { end, hash: h.digest('hex') };
}
