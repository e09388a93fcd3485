// The byte layout of one cache value, checked on every read (DESIGN invariant 4: a corrupt entry is a
// miss, never an output):
//   'PXU1' | payload length (u32 BE) | first 16 bytes of sha256(payload) | payload (msgpackr)
// The payload is a plain map so that fields can be added without breaking older readers.

import { createHash } from 'node:crypto';
import { Packr } from 'msgpackr';

export interface UnitValue {
  /** false: the unit has compile errors (diagnostics say which); nothing to write. */
  ok: boolean;
  ptx: string;
  stub: string;
  /** Raw diagnostics (warnings replay on a hit), before -w/--diag_* adjustments; opaque to the store. */
  diagnostics: unknown[];
  /** How long the compile took, for "time saved" in stats. */
  compileMs: number;
  /** Set when ptxd cannot compile the unit (the reason): a later request goes straight to the real cicc. */
  unsupported?: string;
  /** The real cicc's result for a unit ptxd could not compile or wrongly rejected (cicc/fallback.ts). */
  real?: { files: Record<string, string>; stderr: string };
  /** Where the unit was compiled, when its key left the place out (service/relocate.ts): a hit elsewhere moves it. */
  place?: { baseDir: string; moduleId: string };
}

const MAGIC = Buffer.from('PXU1', 'latin1');
const HEADER = 4 + 4 + 16;
const packr = new Packr({ useRecords: false, moreTypes: false });

function digest(payload: Buffer): Buffer {
  return createHash('sha256').update(payload).digest().subarray(0, 16);
}

export function encodeValue(v: UnitValue): Buffer {
  const payload = packr.pack({
    ok: v.ok, ptx: v.ptx, stub: v.stub, diagnostics: v.diagnostics, compileMs: v.compileMs,
    ...(v.unsupported !== undefined ? { unsupported: v.unsupported } : {}), ...(v.real ? { real: v.real } : {}),
    ...(v.place ? { place: v.place } : {}),
  });
  const head = Buffer.alloc(HEADER);
  MAGIC.copy(head, 0);
  head.writeUInt32BE(payload.length, 4);
  digest(payload).copy(head, 8);
  return Buffer.concat([head, payload]);
}

/** The value, or undefined when the bytes are not a well-formed, intact value. */
export function decodeValue(buf: Uint8Array): UnitValue | undefined {
  const b = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  if (b.length < HEADER || !b.subarray(0, 4).equals(MAGIC)) return undefined;
  const len = b.readUInt32BE(4);
  if (len !== b.length - HEADER) return undefined;
  const payload = b.subarray(HEADER);
  if (!digest(payload).equals(b.subarray(8, HEADER))) return undefined;
  try {
    const v = packr.unpack(payload) as Partial<UnitValue>;
    if (typeof v.ok !== 'boolean' || typeof v.ptx !== 'string' || typeof v.stub !== 'string' || !Array.isArray(v.diagnostics)) return undefined;
    const real = v.real;
    if (real !== undefined && (typeof real !== 'object' || real === null || typeof real.stderr !== 'string' || typeof real.files !== 'object' || real.files === null ||
      Object.values(real.files).some(f => typeof f !== 'string'))) return undefined;
    if (v.unsupported !== undefined && typeof v.unsupported !== 'string') return undefined;
    const place = v.place;
    if (place !== undefined && (typeof place !== 'object' || place === null || typeof place.baseDir !== 'string' || typeof place.moduleId !== 'string')) return undefined;
    return {
      ok: v.ok, ptx: v.ptx, stub: v.stub, diagnostics: v.diagnostics, compileMs: Number(v.compileMs) || 0,
      ...(v.unsupported !== undefined ? { unsupported: v.unsupported } : {}), ...(real ? { real: { files: { ...real.files }, stderr: real.stderr } } : {}),
      ...(place ? { place: { baseDir: place.baseDir, moduleId: place.moduleId } } : {}),
    };
  } catch {
    return undefined;
  }
}
