// vprintf as the CUDA runtime does it: a format string and a packed argument buffer where each argument
// sits at its natural alignment (int/char 4 bytes, long/long long/double/pointer 8; float is promoted).

export interface ArgReader {
  u32(off: number): number;
  u64(off: number): bigint;
  f64(off: number): number;
  /** Read a NUL-terminated string at a generic address. */
  str(addr: bigint): string;
}

/** Number of arguments the last formatPrintf() call consumed (the value device printf returns). */
export let printfArgCount = 0;

export function formatPrintf(fmt: string, args: ArgReader | null): string {
  let out = '';
  printfArgCount = 0;
  let off = 0;
  const take = (size: number): number => {
    off = Math.ceil(off / size) * size;
    const o = off;
    off += size;
    return o;
  };
  for (let i = 0; i < fmt.length; i++) {
    const c = fmt[i]!;
    if (c !== '%') { out += c; continue; }
    const m = /^%([-+ #0]*)(\*|\d+)?(?:\.(\*|\d+))?(hh|h|ll|l|z|j|t|L)?([diouxXeEfFgGaAcspn%])/.exec(fmt.slice(i));
    if (!m) { out += c; continue; }
    i += m[0].length - 1;
    const [, flags = '', widthS, precS, len, conv] = m;
    if (conv === '%') { out += '%'; continue; }
    if (!args) { out += m[0]; continue; }
    printfArgCount++;
    const width = widthS === '*' ? args.u32(take(4)) | 0 : widthS ? Number(widthS) : 0;
    const prec = precS === '*' ? args.u32(take(4)) | 0 : precS !== undefined ? Number(precS) : -1;
    let body: string;
    const big = len === 'll' || len === 'l' || len === 'z' || len === 'j' || len === 't';
    switch (conv) {
      case 'd': case 'i': {
        const v = big ? BigInt.asIntN(64, args.u64(take(8))) : BigInt(args.u32(take(4)) | 0);
        let s = (v < 0n ? -v : v).toString();
        if (prec >= 0) s = s.padStart(prec, '0');
        const sign = v < 0n ? '-' : flags.includes('+') ? '+' : flags.includes(' ') ? ' ' : '';
        body = pad(sign, s, width, flags, prec < 0);
        break;
      }
      case 'u': case 'x': case 'X': case 'o': {
        let v = big ? args.u64(take(8)) : BigInt(args.u32(take(4)) >>> 0);
        if (len === 'h') v &= 0xffffn;
        if (len === 'hh') v &= 0xffn;
        let s = v.toString(conv === 'u' ? 10 : conv === 'o' ? 8 : 16);
        if (conv === 'X') s = s.toUpperCase();
        if (prec >= 0) s = s.padStart(prec, '0');
        const pre = flags.includes('#') && v !== 0n ? (conv === 'x' ? '0x' : conv === 'X' ? '0X' : '0') : '';
        body = pad(pre, s, width, flags, prec < 0);
        break;
      }
      case 'c': body = pad('', String.fromCharCode(args.u32(take(4)) & 0xff), width, flags.replace('0', ''), false); break;
      case 's': {
        let s = args.str(args.u64(take(8)));
        if (prec >= 0) s = s.slice(0, prec);
        body = pad('', s, width, flags.replace('0', ''), false);
        break;
      }
      case 'p': body = pad('', '0x' + args.u64(take(8)).toString(16), width, flags, false); break;
      case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A': {
        const v = args.f64(take(8));
        body = formatFloat(v, conv, prec < 0 ? 6 : prec, flags, width);
        break;
      }
      default: body = m[0];
    }
    out += body;
  }
  return out;
}

function pad(prefix: string, s: string, width: number, flags: string, zeroOk: boolean): string {
  const len = prefix.length + s.length;
  if (len >= width) return prefix + s;
  if (flags.includes('-')) return prefix + s + ' '.repeat(width - len);
  if (flags.includes('0') && zeroOk) return prefix + '0'.repeat(width - len) + s;
  return ' '.repeat(width - len) + prefix + s;
}

function formatFloat(v: number, conv: string, prec: number, flags: string, width: number): string {
  const upper = conv === conv.toUpperCase();
  let sign = v < 0 || Object.is(v, -0) ? '-' : flags.includes('+') ? '+' : flags.includes(' ') ? ' ' : '';
  const a = Math.abs(v);
  let s: string;
  if (v !== v) { s = 'nan'; sign = ''; }
  else if (a === Infinity) s = 'inf';
  else if (conv === 'f' || conv === 'F') s = a.toFixed(Math.min(prec, 100));
  else if (conv === 'e' || conv === 'E') s = expForm(a, prec);
  else if (conv === 'g' || conv === 'G') {
    const p = prec === 0 ? 1 : prec;
    const x = a === 0 ? 0 : Math.floor(Math.log10(Number(a.toExponential(p - 1))));
    if (x < -4 || x >= p) s = expForm(a, p - 1);
    else s = a.toFixed(Math.max(0, p - 1 - x));
    if (!flags.includes('#') && s.includes('.')) s = s.replace(/\.?0+(e|$)/, '$1');
  } else s = a.toString(16);
  if (upper) s = s.toUpperCase();
  return pad(sign, s, width, flags, isFinite(v));
}

function expForm(a: number, prec: number): string {
  const t = a.toExponential(Math.min(prec, 100));
  const [mant, exp] = t.split('e');
  const e = Number(exp);
  return `${mant}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
}
