// Deliberate miscompiles for testing the differential harness (test/mutation.test.ts): with
// CompileOptions.testMutation set, FnWriter.ins()/raw() pass every instruction through here. Never set
// in a real compile; the default (undefined) leaves output untouched.

export const TEST_MUTATIONS = [
  'cmp-lt-le', 'addr-off-by-one', 'drop-barrier', 'round-rz',
  'div-approx', 'div-rz', 'rcp-approx', 'sqrt-approx', 'cvt-rz', 'f64-rz',
] as const;
export type TestMutation = (typeof TEST_MUTATIONS)[number];

/** The instruction to emit instead of (opc, operands), or null to drop it. */
export function mutateIns(m: string, opc: string, operands: string[]): { opc: string; operands: string[] } | null {
  switch (m) {
    case 'cmp-lt-le':
      // wrong comparison predicate on integers: a < b becomes a <= b
      if (/^setp\.lt\.[su](16|32|64)$/.test(opc)) return { opc: opc.replace('.lt.', '.le.'), operands };
      break;
    case 'addr-off-by-one': {
      // off-by-one element in a constant address offset of a global/generic/shared load or store
      const mm = /^(ld|st)(\.global|\.shared)?(\.nc)?\.[bsu](32|64)$/.exec(opc);
      const k = opc.startsWith('ld') ? 1 : 0;
      const at = mm ? operands[k] : undefined;
      const a = at ? /^\[(%\w+)\+(\d+)\]$/.exec(at) : null;
      if (mm && a) {
        const copy = [...operands];
        copy[k] = `[${a[1]}+${Number(a[2]) + Number(mm[4]) / 8}]`;
        return { opc, operands: copy };
      }
      break;
    }
    case 'drop-barrier':
      if (opc === 'bar.sync' || opc === 'barrier.sync') return null;
      break;
    case 'round-rz': {
      // wrong rounding mode: f32 add/sub/mul/fma round toward zero instead of to nearest
      const r = /^(add|sub|mul|fma)(\.rn)?(\.ftz)?\.f32$/.exec(opc);
      if (r) return { opc: `${r[1]}.rz${r[3] ?? ''}.f32`, operands };
      break;
    }
    case 'div-approx': {
      // an IEEE division becomes the fast approximation (what -prec-div=false would give)
      const r = /^div\.rn(\.ftz)?\.f32$/.exec(opc);
      if (r) return { opc: `div.approx${r[1] ?? ''}.f32`, operands };
      break;
    }
    case 'div-rz':
      if (/^div\.rn(\.ftz)?\.f(32|64)$/.test(opc)) return { opc: opc.replace('.rn', '.rz'), operands };
      break;
    case 'rcp-approx': {
      const r = /^rcp\.rn(\.ftz)?\.(f32|f64)$/.exec(opc);
      if (r) return { opc: r[2] === 'f64' ? 'rcp.approx.ftz.f64' : `rcp.approx${r[1] ?? ''}.f32`, operands };
      break;
    }
    case 'sqrt-approx': {
      const r = /^sqrt\.rn(\.ftz)?\.f32$/.exec(opc);
      if (r) return { opc: `sqrt.approx${r[1] ?? ''}.f32`, operands };
      break;
    }
    case 'cvt-rz':
      // a conversion that rounds to a float type rounds toward zero instead of to nearest
      if (/^cvt\.rn(\.ftz)?(\.sat)?\.f(32|64)\.[a-z0-9]+$/.test(opc)) return { opc: opc.replace('.rn', '.rz'), operands };
      break;
    case 'f64-rz':
      if (/^(add|sub|mul|fma)\.rn\.f64$/.test(opc)) return { opc: opc.replace('.rn', '.rz'), operands };
      break;
    default:
      throw new Error(`unknown test mutation ${m}`);
  }
  return { opc, operands };
}

/** A raw line to emit instead, or null to drop it. */
export function mutateRaw(m: string, line: string): string | null {
  if (m === 'drop-barrier' && /^\s*(bar|barrier)\.sync\b/.test(line)) return null;
  return line;
}
