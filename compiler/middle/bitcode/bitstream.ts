// LLVM bitstream container: a bit-level cursor, nested blocks with their own abbreviation width,
// abbreviation definitions (fixed, vbr, array, char6, blob, literal), the BLOCKINFO block, and records.
// The reader walks the stream once, calling back for records and sub-blocks; it knows nothing of IR.

export class BitcodeError extends Error {}

/** One operand of an abbreviation. */
type AbbrevOp =
  | { k: 'lit'; v: number }
  | { k: 'fixed'; w: number }
  | { k: 'vbr'; w: number }
  | { k: 'array' }
  | { k: 'char6' }
  | { k: 'blob' };
type Abbrev = AbbrevOp[];

/** A decoded record: its code and operands (numbers; 64-bit values beyond 2^53 lose precision, see `big`). */
export interface BitRecord {
  code: number;
  ops: number[];
  /** Exact values for operands that did not fit a double (e.g. 64-bit constants), by operand index. */
  big?: Map<number, bigint>;
  blob?: Uint8Array;
}

const CHAR6 = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._';

export class BitCursor {
  private pos = 0; // bit position
  constructor(private readonly buf: Uint8Array, readonly end = buf.length * 8) {}

  get bitPos(): number { return this.pos; }
  atEnd(): boolean { return this.pos >= this.end; }
  /** An element count read from the stream: no array can hold more elements than bits remain. */
  count(n: number): number {
    if (n > this.end - this.pos) throw new BitcodeError('element count beyond the end of the bitcode');
    return n;
  }
  seek(bit: number): void { this.pos = bit; }

  /** Read up to 32 bits, little-endian bit order. */
  read(width: number): number {
    if (width === 0) return 0;
    if (this.pos + width > this.end) throw new BitcodeError('unexpected end of bitcode');
    let v = 0, got = 0;
    while (got < width) {
      const byte = this.buf[this.pos >>> 3]!;
      const off = this.pos & 7;
      const take = Math.min(8 - off, width - got);
      const bits = (byte >>> off) & ((1 << take) - 1);
      v += bits * 2 ** got;
      got += take; this.pos += take;
    }
    return v;
  }
  /** Variable-width integer; returns a number, or a bigint when it exceeds 2^53. */
  readVbrBig(width: number): number | bigint {
    const hi = 1 << (width - 1), mask = hi - 1;
    let piece = this.read(width);
    if ((piece & hi) === 0) return piece;
    let v = BigInt(piece & mask), shift = BigInt(width - 1);
    for (;;) {
      piece = this.read(width);
      v |= BigInt(piece & mask) << shift;
      if ((piece & hi) === 0) break;
      shift += BigInt(width - 1);
      if (shift > 70n) throw new BitcodeError('vbr too long');
    }
    return v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
  }
  readVbr(width: number): number {
    const v = this.readVbrBig(width);
    if (typeof v === 'bigint') throw new BitcodeError('vbr value too large');
    return v;
  }
  align32(): void { this.pos = Math.ceil(this.pos / 32) * 32; }
  bytes(n: number): Uint8Array {
    if ((this.pos & 7) !== 0) throw new BitcodeError('unaligned blob');
    const s = this.pos >>> 3;
    if (this.pos + n * 8 > this.end) throw new BitcodeError('unexpected end of bitcode');
    this.pos += n * 8;
    return this.buf.subarray(s, s + n);
  }
}

/** Callbacks for a block walk. `enter` returns false to skip the sub-block (uses its length word). */
export interface BlockVisitor {
  record(blockId: number, rec: BitRecord): void;
  enter?(blockId: number, bitPos: number, headerPos: number): boolean;
  exit?(blockId: number): void;
}

const END_BLOCK = 0, ENTER_SUBBLOCK = 1, DEFINE_ABBREV = 2, UNABBREV_RECORD = 3;
const BLOCKINFO_ID = 0;

/** Walks a bitstream: handles abbreviations (per block and from BLOCKINFO) and decodes every record. */
export class BitstreamReader {
  private readonly cur: BitCursor;
  /** Abbreviations registered by BLOCKINFO for each block id. */
  private readonly blockInfo = new Map<number, Abbrev[]>();

  constructor(buf: Uint8Array, startByte = 0, endByte = buf.length) {
    this.cur = new BitCursor(buf, endByte * 8);
    this.cur.seek(startByte * 8);
  }

  /** Walk the top level (abbreviation width 2) until the end of the stream. */
  walk(v: BlockVisitor): void {
    while (!this.cur.atEnd()) {
      if (this.cur.bitPos + 32 > this.cur.end) break; // trailing padding
      const id = this.cur.read(2);
      if (id !== ENTER_SUBBLOCK) throw new BitcodeError(`unexpected abbrev id ${id} at top level`);
      this.block(v);
    }
  }

  /** After ENTER_SUBBLOCK was read: read the header and the body up to END_BLOCK. */
  private block(v: BlockVisitor): void {
    const c = this.cur;
    const headerPos = c.bitPos;
    const blockId = c.readVbr(8);
    const width = c.readVbr(4);
    c.align32();
    const words = c.read(32);
    const bodyStart = c.bitPos;
    if (blockId !== BLOCKINFO_ID && v.enter && !v.enter(blockId, bodyStart, headerPos)) { c.seek(bodyStart + words * 32); return; }
    const abbrevs: Abbrev[] = [...(this.blockInfo.get(blockId) ?? [])];
    let infoTarget = -1; // BLOCKINFO: block id that DEFINE_ABBREV applies to
    for (;;) {
      const id = c.read(width);
      if (id === END_BLOCK) { c.align32(); break; }
      if (id === ENTER_SUBBLOCK) { this.block(v); continue; }
      if (id === DEFINE_ABBREV) {
        const a = this.defineAbbrev();
        if (blockId === BLOCKINFO_ID) {
          if (infoTarget < 0) throw new BitcodeError('abbreviation in BLOCKINFO before SETBID');
          let list = this.blockInfo.get(infoTarget);
          if (!list) { list = []; this.blockInfo.set(infoTarget, list); }
          list.push(a);
        } else abbrevs.push(a);
        continue;
      }
      const rec = id === UNABBREV_RECORD ? this.unabbrev() : this.abbreviated(abbrevs[id - 4], id);
      if (blockId === BLOCKINFO_ID) {
        if (rec.code === 1) infoTarget = rec.ops[0]!; // SETBID; BLOCKNAME/SETRECORDNAME are ignored
        continue;
      }
      v.record(blockId, rec);
    }
    v.exit?.(blockId);
  }

  /**
   * Walk one block again, later: `headerPos` is what `enter` received for it. Abbreviations from BLOCKINFO
   * stay known (this reader read them); the enclosing block's own abbreviations do not apply to sub-blocks.
   */
  walkBlockAt(headerPos: number, v: BlockVisitor): void {
    this.cur.seek(headerPos);
    this.block(v);
  }

  private defineAbbrev(): Abbrev {
    const c = this.cur;
    const n = c.count(c.readVbr(5));
    const ops: Abbrev = [];
    for (let i = 0; i < n; i++) {
      if (c.read(1)) { ops.push({ k: 'lit', v: c.readVbr(8) }); continue; }
      const enc = c.read(3);
      if (enc === 1) ops.push({ k: 'fixed', w: c.readVbr(5) });
      else if (enc === 2) ops.push({ k: 'vbr', w: c.readVbr(5) });
      else if (enc === 3) ops.push({ k: 'array' });
      else if (enc === 4) ops.push({ k: 'char6' });
      else if (enc === 5) ops.push({ k: 'blob' });
      else throw new BitcodeError(`bad abbreviation encoding ${enc}`);
    }
    return ops;
  }

  private unabbrev(): BitRecord {
    const c = this.cur;
    const code = c.readVbr(6);
    const n = c.count(c.readVbr(6));
    const rec: BitRecord = { code, ops: new Array<number>(n) };
    for (let i = 0; i < n; i++) this.push(rec, i, c.readVbrBig(6));
    return rec;
  }

  private push(rec: BitRecord, i: number, v: number | bigint): void {
    if (typeof v === 'bigint') { (rec.big ??= new Map()).set(i, v); rec.ops[i] = Number(v); } else rec.ops[i] = v;
  }

  private scalar(op: AbbrevOp): number | bigint {
    const c = this.cur;
    switch (op.k) {
      case 'lit': return op.v;
      case 'fixed': return op.w <= 32 ? c.read(op.w) : (() => { const lo = c.read(32); const hi = c.read(op.w - 32); return BigInt(lo) + (BigInt(hi) << 32n); })();
      case 'vbr': return c.readVbrBig(op.w);
      case 'char6': return CHAR6.charCodeAt(c.read(6));
      default: throw new BitcodeError('array/blob used as a scalar operand');
    }
  }

  private abbreviated(a: Abbrev | undefined, id: number): BitRecord {
    if (!a) throw new BitcodeError(`undefined abbreviation ${id}`);
    const vals: (number | bigint)[] = [];
    let blob: Uint8Array | undefined;
    for (let i = 0; i < a.length; i++) {
      const op = a[i]!;
      if (op.k === 'array') {
        const elt = a[++i];
        if (!elt) throw new BitcodeError('array abbreviation without element type');
        const n = this.cur.count(this.cur.readVbr(6));
        for (let j = 0; j < n; j++) vals.push(this.scalar(elt));
      } else if (op.k === 'blob') {
        const n = this.cur.count(this.cur.readVbr(6));
        this.cur.align32();
        blob = this.cur.bytes(n);
        this.cur.align32();
      } else vals.push(this.scalar(op));
    }
    if (vals.length === 0) throw new BitcodeError('abbreviated record without a code');
    const code = Number(vals[0]);
    const rec: BitRecord = { code, ops: new Array<number>(vals.length - 1) };
    for (let i = 1; i < vals.length; i++) this.push(rec, i - 1, vals[i]!);
    if (blob) rec.blob = blob;
    return rec;
  }
}

/** Strip the optional bitcode wrapper header (0x0B17C0DE) and check the 'BC' 0xC0DE magic; returns the start byte. */
export function bitcodeStart(buf: Uint8Array): { start: number; end: number } {
  let start = 0, end = buf.length;
  const u32 = (o: number) => (buf[o]! | (buf[o + 1]! << 8) | (buf[o + 2]! << 16) | (buf[o + 3]! << 24)) >>> 0;
  if (buf.length >= 20 && u32(0) === 0x0b17c0de) { start = u32(8); end = start + u32(12); }
  if (end > buf.length || end - start < 4 || buf[start] !== 0x42 || buf[start + 1] !== 0x43 || buf[start + 2] !== 0xc0 || buf[start + 3] !== 0xde)
    throw new BitcodeError('not an LLVM bitcode file');
  return { start: start + 4, end };
}
