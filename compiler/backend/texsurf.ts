// PTX for the texture/surface intrinsics the front end emits for texture and surface objects
// (compiler/frontend/builtins-tex.ts): tex / tld4 / suld / sust with the object as a u64 handle.
// Operand shapes follow the PTX ISA (and cicc's printing): 3-D and 2-D-array coordinates are padded to
// four with the last one repeated, array coordinates start with the layer.
import type { Inst, Value } from '../middle/ir';
import type { Emitter } from './emitter';

const TEX_RE = /^llvm\.nvvm\.(?:tex\.unified\.(1d|2d|3d|cube)(\.array)?(?:\.(level|grad))?|tld4\.unified\.([rgba])\.(2d))\.v4(f32|s32|u32)\.(f32|s32)$/;
const SULD_RE = /^llvm\.nvvm\.suld\.(1d|2d|3d)(\.array)?\.(?:v([24]))?i(8|16|32|64)\.(trap|clamp|zero)$/;
const SUST_RE = /^llvm\.nvvm\.sust\.b\.(1d|2d|3d)(\.array)?\.(?:v([24]))?i(8|16|32|64)\.(trap|clamp|zero)$/;

/** `{a, b, c}` padded to the PTX vector size (1, 2 or 4) by repeating the last element. */
function vec(rs: string[]): string {
  const out = [...rs];
  while (out.length === 3) out.push(out[out.length - 1]!);
  return `{${out.join(', ')}}`;
}

/** PTX geometry name: 1d/2d/3d/cube, a1d/a2d/acube for arrays. */
const geomOf = (g: string, arr: string | undefined): string => (arr ? 'a' : '') + g;

/** Emit one texture/surface intrinsic; false if `name` is not one of them. */
export function emitTexSurf(e: Emitter, i: Inst, name: string, args: Value[]): boolean {
  const s = (v: Value): string => e.scalar(v);
  let m: RegExpExecArray | null;
  if ((m = TEX_RE.exec(name))) {
    const [, g, arr, mode, comp, g4, vt, ct] = m as unknown as (string | undefined)[];
    const geom = geomOf(g ?? g4!, arr);
    const dims = (g ?? g4) === '1d' ? 1 : (g ?? g4) === '2d' ? 2 : 3;
    const nc = (arr ? 1 : 0) + dims;
    const h = s(args[0]!);
    const crd = args.slice(1, 1 + nc).map(s);
    const dst = vec(e.regsOf(i));
    const addr = `[${h}, ${vec(crd)}]`;
    if (comp) { e.ins(`tld4.${comp}.${geom}.v4.${vt}.${ct}`, dst, addr); return true; }
    if (mode === 'level') { e.ins(`tex.level.${geom}.v4.${vt}.${ct}`, dst, addr, s(args[1 + nc]!)); return true; }
    if (mode === 'grad') {
      const gx = args.slice(1 + nc, 1 + nc + dims).map(s), gy = args.slice(1 + nc + dims, 1 + nc + 2 * dims).map(s);
      // cicc prints the cube-map gradient forms with no space before the tab
      const opc = `tex.grad.${geom}.v4.${vt}.${ct}`;
      if (g === 'cube') e.raw(`\t${opc}\t${dst}, ${addr}, ${vec(gx)}, ${vec(gy)};`);
      else e.ins(opc, dst, addr, vec(gx), vec(gy));
      return true;
    }
    e.ins(`tex.${geom}.v4.${vt}.${ct}`, dst, addr);
    return true;
  }
  if ((m = SULD_RE.exec(name))) {
    const [, g, arr, vn, bits, oob] = m as unknown as string[];
    const nc = (arr ? 1 : 0) + (g === '1d' ? 1 : g === '2d' ? 2 : 3);
    const coords = vec(args.slice(1, 1 + nc).map(s));
    const v = vn ? `.v${vn}` : '';
    // cicc prints suld with a space, not a tab, before the destination
    e.raw(`\tsuld.b.${geomOf(g!, arr)}${v}.b${bits}.${oob} ${vec(e.regsOf(i))}, [${s(args[0]!)}, ${coords}];`);
    return true;
  }
  if ((m = SUST_RE.exec(name))) {
    const [, g, arr, vn, bits, oob] = m as unknown as string[];
    const nc = (arr ? 1 : 0) + (g === '1d' ? 1 : g === '2d' ? 2 : 3);
    const coords = vec(args.slice(1, 1 + nc).map(s));
    const v = vn ? `.v${vn}` : '';
    e.ins(`sust.b.${geomOf(g!, arr)}${v}.b${bits}.${oob}`, `[${s(args[0]!)}, ${coords}]`, vec(args.slice(1 + nc).map(s)));
    return true;
  }
  return false;
}
