// The signed form of a remote entry:  'PXS1' | HMAC-SHA256(team key, name \0 value) (32 bytes) | value
// The MAC covers the entry's name as well as its bytes, so a valid entry copied under another key is
// rejected too. Verification is constant-time.

import { createHmac, timingSafeEqual } from 'node:crypto';

const MAGIC = Buffer.from('PXS1', 'latin1');
const MAC_LEN = 32;
const HEADER = MAGIC.length + MAC_LEN;

function mac(key: Buffer, name: string, value: Uint8Array): Buffer {
  return createHmac('sha256', key).update(name, 'utf8').update('\0').update(value).digest();
}

export function sign(key: Buffer, name: string, value: Uint8Array): Buffer {
  return Buffer.concat([MAGIC, mac(key, name, value), value]);
}

/** The value when `signed` carries a valid signature for `name`; undefined otherwise. */
export function verify(key: Buffer, name: string, signed: Buffer): Buffer | undefined {
  if (signed.length < HEADER || !signed.subarray(0, MAGIC.length).equals(MAGIC)) return undefined;
  const value = signed.subarray(HEADER);
  return timingSafeEqual(mac(key, name, value), signed.subarray(MAGIC.length, HEADER)) ? value : undefined;
}
