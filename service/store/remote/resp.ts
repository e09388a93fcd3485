// RESP2, the Redis wire protocol: command encoding and an incremental reply parser.
//   +simple  -error  :integer  $bulk (or $-1 for nil)  *array (or *-1)
// The parser keeps received chunks and joins them only once a whole reply can be there, so a large
// bulk reply arriving in many chunks is copied once rather than once per chunk.

export class RespError extends Error {}
export type RespValue = string | number | Buffer | null | RespError | RespValue[];

export function encodeCommand(args: readonly (string | Buffer)[]): Buffer {
  const parts: Buffer[] = [Buffer.from(`*${args.length}\r\n`, 'latin1')];
  for (const a of args) {
    const b = typeof a === 'string' ? Buffer.from(a, 'utf8') : a;
    parts.push(Buffer.from(`$${b.length}\r\n`, 'latin1'), b, Buffer.from('\r\n', 'latin1'));
  }
  return Buffer.concat(parts);
}

const INCOMPLETE = Symbol('incomplete');

export class RespParser {
  private chunks: Buffer[] = [];
  private length = 0;
  /** Bytes needed before parsing is worth trying again (set when a bulk reply is known to be incomplete). */
  private need = 0;

  /** Adds received bytes; returns every reply now complete. Throws on a malformed stream. */
  push(chunk: Buffer): RespValue[] {
    this.chunks.push(chunk);
    this.length += chunk.length;
    const out: RespValue[] = [];
    if (this.length < this.need) return out;
    let buf = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.length);
    let pos = 0;
    for (;;) {
      const r = this.parse(buf, pos);
      if (r === INCOMPLETE) break;
      out.push(r.value);
      pos = r.end;
      this.need = 0;
    }
    if (this.need > 0) this.need -= pos;
    buf = buf.subarray(pos);
    this.chunks = buf.length ? [buf] : [];
    this.length = buf.length;
    return out;
  }

  private line(buf: Buffer, pos: number): { text: string; end: number } | typeof INCOMPLETE {
    const nl = buf.indexOf('\r\n', pos, 'latin1');
    if (nl < 0) return INCOMPLETE;
    return { text: buf.toString('utf8', pos, nl), end: nl + 2 };
  }

  private parse(buf: Buffer, pos: number): { value: RespValue; end: number } | typeof INCOMPLETE {
    if (pos >= buf.length) return INCOMPLETE;
    const type = String.fromCharCode(buf[pos]!);
    const l = this.line(buf, pos + 1);
    if (l === INCOMPLETE) return INCOMPLETE;
    switch (type) {
      case '+': return { value: l.text, end: l.end };
      case '-': return { value: new RespError(l.text), end: l.end };
      case ':': return { value: Number(l.text), end: l.end };
      case '$': {
        const n = Number(l.text);
        if (n === -1) return { value: null, end: l.end };
        if (!Number.isInteger(n) || n < 0) throw new Error(`bad bulk length "${l.text}"`);
        if (buf.length < l.end + n + 2) { this.need = l.end + n + 2; return INCOMPLETE; }
        return { value: Buffer.from(buf.subarray(l.end, l.end + n)), end: l.end + n + 2 };
      }
      case '*': {
        const n = Number(l.text);
        if (n === -1) return { value: null, end: l.end };
        if (!Number.isInteger(n) || n < 0) throw new Error(`bad array length "${l.text}"`);
        const items: RespValue[] = [];
        let p = l.end;
        for (let i = 0; i < n; i++) {
          const r = this.parse(buf, p);
          if (r === INCOMPLETE) { this.need = 0; return INCOMPLETE; }
          items.push(r.value);
          p = r.end;
        }
        return { value: items, end: p };
      }
      default:
        throw new Error(`bad reply type byte 0x${buf[pos]!.toString(16)}`);
    }
  }
}
