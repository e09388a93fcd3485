// The module id: `_<hash8>_<len>_<basename with . → _>_<hash8>` (research/cicc-cli-contract.md §3).
// nvcc normally hands it to cicc in --module_id_file_name (written by cudafe++). In `-ptx`/`-cubin`
// modes (--gen_module_id_file) cicc computes it itself. cicc's hash algorithm is unknown, so ours is
// only deterministic (same orig_src_path_name → same id), not byte-identical to the real one: internal
// names in `nvcc -ptx` output differ from the real cicc's, which nothing downstream depends on.

import { createHash } from 'node:crypto';

function hash8(s: string): string {
  return createHash('sha256').update(s).digest('hex').slice(0, 8);
}

export function generateModuleId(origSrcPathName: string, origSrcFileName: string): string {
  const path = origSrcPathName || origSrcFileName;
  const slash = path.lastIndexOf('/');
  const base = slash >= 0 ? path.slice(slash + 1) : path;
  const ident = base.replace(/[^A-Za-z0-9_]/g, '_');
  return `_${hash8('path:' + path)}_${base.length}_${ident}_${hash8('file:' + origSrcFileName + '\0' + path)}`;
}
