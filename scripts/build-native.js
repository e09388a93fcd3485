#!/usr/bin/env node
// Builds the native ptxd-cicc (client/native/ptxd-cicc.c) into dist/native/, after tsc (npm run build).
// The binary carries this build's identity (version, build stamp, protocol, install dir) and the node
// that runs the Node client, so it must be rebuilt whenever dist/ is: `npm run build` does both.
// Without a C compiler (set CC to choose one) the build goes on without it: bin/ptxd-cicc then runs
// the Node client, which does the same job, only with Node's start-up on every call.
'use strict';
const { spawnSync } = require('node:child_process');
const { mkdirSync, renameSync, rmSync } = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const { buildStamp, ptxdVersion, NATIVE_CLIENT, SCRIPT_CLIENT } = require(path.join(root, 'dist', 'protocol', 'version.js'));
const { INSTALL_DIR } = require(path.join(root, 'dist', 'protocol', 'paths.js'));
const { PROTOCOL } = require(path.join(root, 'dist', 'protocol', 'messages.js'));
const { CLIENT_ENV_VARS } = require(path.join(root, 'dist', 'daemon', 'client-env.js'));

/** A C string literal for any string (octal escapes for everything but plain printable ASCII). */
function cString(s) {
  let out = '"';
  for (const b of Buffer.from(s, 'utf8')) {
    const c = String.fromCharCode(b);
    out += b >= 0x20 && b < 0x7f && c !== '"' && c !== '\\' && c !== '?' ? c : '\\' + b.toString(8).padStart(3, '0');
  }
  return out + '"';
}

const defines = {
  PTXD_NODE: cString(process.execPath),
  PTXD_SCRIPT: cString(SCRIPT_CLIENT),
  PTXD_INSTALL_DIR: cString(INSTALL_DIR),
  PTXD_VERSION: cString(ptxdVersion()),
  PTXD_STAMP: cString(buildStamp()),
  PTXD_PROTO: String(PROTOCOL),
  // the environment variables the client sends: NUL-separated, an empty name ends the list
  PTXD_ENV_VARS: cString(CLIENT_ENV_VARS.map(v => `${v}\0`).join('')),
};

mkdirSync(path.dirname(NATIVE_CLIENT), { recursive: true });
const tmp = `${NATIVE_CLIENT}.${process.pid}.tmp`;
const src = path.join(root, 'client', 'native', 'ptxd-cicc.c');
const args = ['-O2', '-std=c11', '-Wall', '-Wextra', ...Object.entries(defines).map(([k, v]) => `-D${k}=${v}`), '-o', tmp, src];
const compilers = process.env.CC ? [process.env.CC] : ['cc', 'gcc', 'clang'];
let built = false;
let why = '';
for (const cc of compilers) {
  const r = spawnSync(cc, args, { encoding: 'utf8' });
  if (r.error) { why = `${cc}: ${r.error.code ?? r.error.message}`; continue; }
  if (r.status !== 0) { why = `${cc} failed:\n${r.stderr}`; break; }
  if (r.stderr.trim()) process.stderr.write(r.stderr);
  renameSync(tmp, NATIVE_CLIENT);
  built = true;
  break;
}
if (!built) {
  rmSync(tmp, { force: true });
  // A binary of an earlier build would only ever hand calls to the Node client: remove it.
  rmSync(NATIVE_CLIENT, { force: true });
  process.stderr.write(`ptxd: the native client was not built (${why.trim()}); ptxd-cicc runs on Node\n`);
}
