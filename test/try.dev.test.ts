import { it } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { compileUnit } from '../compiler/compile';
import { formatDiagnostic } from '../compiler/diagnostics';
import { parseCiccArgs } from '../client/cicc-args';
import { libdeviceBytes, ciccArgv, mkTempDir, prepareUnits, requireTool, run } from './helpers/tools';
const files = (process.env.TRY ?? '').split(',').filter(Boolean);
const archs = (process.env.ARCHS ?? '90').split(',').map(Number);
it('try', () => {
  for (const f of files) {
    let units; try { units = prepareUnits(f, archs); } catch (e) { console.log(`== ${f}: nvcc failed ${String(e).slice(0, 500)}`); continue; }
    for (const a of archs) {
      const u = units.get(a)!;
      const out = mkTempDir('try');
      const args = parseCiccArgs(ciccArgv(u, out));
      args.options.moduleId = u.moduleId;
      const r = compileUnit(fs.readFileSync(u.ii, "utf8"), args.options, { libdevice: libdeviceBytes() });
      console.log(`== ${f} sm_${a}: ok=${r.ok} unsupported=${r.unsupported}`);
      console.log(r.diagnostics.map(d => formatDiagnostic(d, false)).join('').slice(0, 3000));
      const base = path.join('/tmp/cxxb/out', path.basename(f, '.cu') + '.' + a);
      fs.mkdirSync('/tmp/cxxb/out', { recursive: true });
      fs.writeFileSync(base + '.ref.ptx', u.refPtx);
      fs.copyFileSync(u.ii, base + '.ii');
      if (r.ok) {
        fs.writeFileSync(base + '.ptx', r.ptx);
        const p = run(requireTool('ptxas'), [`-arch=sm_${a}`, base + '.ptx', '-o', base + '.cubin']);
        console.log(`ptxas rc=${p.status} ${p.stderr.slice(0, 2000)}`);
        const sym = (s: string) => [...s.matchAll(/^\s*(?:\.visible\s+|\.weak\s+|\.extern\s+)?\.(?:entry|func|global|const|shared)\s+(?:\.align\s+\d+\s+)?(?:\.\w+\s+)?(?:\([^)]*\)\s*)?([A-Za-z_$][\w$]*)/gm)].map(m => m[1]).sort().join(' ');
        console.log('ours: ' + sym(r.ptx)); console.log('ref:  ' + sym(u.refPtx));
        console.log(`insts ours=${r.ptx.split('\n').filter(l => /^\s+[a-z@]/.test(l) && /;\s*$/.test(l)).length} ref=${u.refPtx.split('\n').filter(l => /^\s+[a-z@]/.test(l) && /;\s*$/.test(l)).length}`);
      }
    }
  }
});
