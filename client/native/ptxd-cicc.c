// ptxd-cicc, native: the fast path of the drop-in cicc.
//
// nvcc runs cicc once per unit and architecture, so the client's start-up is paid on every compile: Node
// alone takes 110-140 ms to start here, more than the daemon needs to answer from its cache or to compile
// a small unit. This client only carries the call to a running daemon of the same build: argv, the
// environment variables a compile needs, cwd and pids go in a `cicc` message; the daemon parses argv,
// compiles, writes the outputs (client/cicc.ts runCiccForClient) and answers with the exit code and cicc's
// stderr, or tells it to fall back to the real cicc. It also takes make tokens for the daemon when asked (the protocol of
// protocol/jobserver.ts) and gives every one back on every way out it can catch.
//
// Anything else goes to the Node client (bin/ptxd-cicc run by node), which does the whole job itself:
// no daemon yet (it starts one), a daemon of another build, a lost connection, an error answer, capture
// mode, PTXD_DAEMON=0. So this file never decides anything about a compile; it is only faster.
//
// Trust (protocol/auth.ts): the socket is used only when it and its directory are ours (directory 0700, not a
// symlink), the peer runs as us (SO_PEERCRED) and proves it holds the key in `<socket>.key`; we prove it
// too. Only the environment variables of daemon/client-env.ts go out, and on a fallback we run the real
// cicc we choose ourselves (nvcc's, our argv[1]), never a program the daemon names.
//
// Built by scripts/build-native.js, which passes the build's identity as macros (PTXD_NODE, PTXD_SCRIPT,
// PTXD_INSTALL_DIR, PTXD_VERSION, PTXD_STAMP, PTXD_PROTO) and the environment allow-list (PTXD_ENV_VARS:
// names separated by NUL bytes, ending with an empty name).

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <poll.h>
#include <unistd.h>

#if !defined(PTXD_NODE) || !defined(PTXD_SCRIPT) || !defined(PTXD_INSTALL_DIR) || !defined(PTXD_VERSION) || \
    !defined(PTXD_STAMP) || !defined(PTXD_PROTO) || !defined(PTXD_ENV_VARS)
#error "build with scripts/build-native.js"
#endif

extern char **environ;

static int g_argc;
static char **g_argv;

// ---------------------------------------------------------------------------------------------------
// The Node client: the way out of every case this file does not handle.

static void run_node(void) {
  char **argv = calloc((size_t)g_argc + 2, sizeof *argv);
  if (argv) {
    argv[0] = PTXD_NODE;
    argv[1] = PTXD_SCRIPT;
    for (int i = 1; i < g_argc; i++) argv[i + 1] = g_argv[i];
    execv(PTXD_NODE, argv);
    // the node of the build has moved (another Node install): the one on PATH, as bin/ptxd-cicc's sh part does
    argv[0] = "node";
    execvp("node", argv);
  }
  fprintf(stderr, "ptxd-cicc: error: cannot run node (%s): %s\n", PTXD_NODE, strerror(errno));
  exit(1);
}

// ---------------------------------------------------------------------------------------------------
// make's jobserver: tokens taken for the daemon, given back on every way out we can catch.

static int tok_r = -1, tok_w = -1;
static unsigned char toks[1024];
static volatile sig_atomic_t ntok;

static int release_tokens(void) {
  int n = 0;
  while (ntok > 0) {
    ssize_t w = write(tok_w, &toks[ntok - 1], 1);
    if (w < 0 && errno == EINTR) continue;
    ntok--;   // written, or lost with the pipe: never retried forever
    if (w == 1) n++;
  }
  return n;
}

static void on_signal(int sig) {
  release_tokens();
  signal(sig, SIG_DFL);
  raise(sig);   // die of the signal, as if it had not been caught
}

/** Opens the jobserver the daemon named (fifo path, or the pipe fds make passed down); 0 on success. */
static int open_jobserver(const char *kind, const char *path, long r, long w) {
  if (tok_r >= 0) return 0;
  if (strcmp(kind, "fifo") == 0 && path) {
    tok_r = tok_w = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
  } else if (strcmp(kind, "pipe") == 0 && r >= 0 && w >= 0 && fcntl((int)w, F_GETFD) >= 0) {
    // Non-blocking reads through a new open file description: make's own stays blocking.
    char p[64];
    snprintf(p, sizeof p, "/proc/self/fd/%ld", r);
    tok_r = open(p, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    tok_w = (int)w;
  }
  return tok_r >= 0 ? 0 : -1;
}

/** Takes up to `want` tokens that are free now (never waits). */
static long take_tokens(long want) {
  long n = 0;
  while (n < want && ntok < (sig_atomic_t)sizeof toks) {
    unsigned char c;
    ssize_t got = read(tok_r, &c, 1);
    if (got < 0 && errno == EINTR) continue;
    if (got != 1) break;
    toks[ntok] = c;
    ntok++;
    n++;
  }
  return n;
}

// ---------------------------------------------------------------------------------------------------
// msgpack, the subset msgpackr produces and reads for our messages (maps with string keys, strings,
// integers, floats, arrays, nil, booleans).

typedef struct { unsigned char *p; size_t n, cap; } Buf;

static void put(Buf *b, const void *d, size_t n) {
  if (b->n + n > b->cap) {
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->n + n) cap *= 2;
    unsigned char *p = realloc(b->p, cap);
    if (!p) { fprintf(stderr, "ptxd-cicc: error: out of memory\n"); exit(1); }
    b->p = p;
    b->cap = cap;
  }
  memcpy(b->p + b->n, d, n);
  b->n += n;
}

static void put_be(Buf *b, uint64_t v, int bytes) {
  unsigned char t[8];
  for (int i = 0; i < bytes; i++) t[i] = (unsigned char)(v >> (8 * (bytes - 1 - i)));
  put(b, t, (size_t)bytes);
}

static void put_tag(Buf *b, unsigned char tag) { put(b, &tag, 1); }

/** A length-prefixed header: fix form when it fits, else the 8/16/32-bit forms starting at tag8 (str, bin) or tag16. */
static void mp_head(Buf *b, uint32_t n, unsigned fixbase, unsigned fixmax, int tag8, unsigned tag16) {
  if (n <= fixmax) put_tag(b, (unsigned char)(fixbase | n));
  else if (tag8 >= 0 && n < 256) { put_tag(b, (unsigned char)tag8); put_be(b, n, 1); }
  else if (n < 65536) { put_tag(b, (unsigned char)tag16); put_be(b, n, 2); }
  else { put_tag(b, (unsigned char)(tag16 + 1)); put_be(b, n, 4); }
}

static void mp_str(Buf *b, const char *s, size_t n) { mp_head(b, (uint32_t)n, 0xa0, 31, 0xd9, 0xda); put(b, s, n); }
static void mp_cstr(Buf *b, const char *s) { mp_str(b, s, strlen(s)); }
static void mp_map(Buf *b, uint32_t n) { mp_head(b, n, 0x80, 15, -1, 0xde); }
static void mp_arr(Buf *b, uint32_t n) { mp_head(b, n, 0x90, 15, -1, 0xdc); }

static void mp_uint(Buf *b, uint64_t v) {
  if (v < 128) put_tag(b, (unsigned char)v);
  else if (v < 256) { put_tag(b, 0xcc); put_be(b, v, 1); }
  else if (v < 65536) { put_tag(b, 0xcd); put_be(b, v, 2); }
  else if (v <= 0xffffffffu) { put_tag(b, 0xce); put_be(b, v, 4); }
  else { put_tag(b, 0xcf); put_be(b, v, 8); }
}

static void mp_double(Buf *b, double d) {
  uint64_t u;
  memcpy(&u, &d, 8);
  put_tag(b, 0xcb);
  put_be(b, u, 8);
}

/** key: string value */
static void kv_str(Buf *b, const char *k, const char *v) { mp_cstr(b, k); mp_cstr(b, v); }
static void kv_uint(Buf *b, const char *k, uint64_t v) { mp_cstr(b, k); mp_uint(b, v); }

typedef struct { const unsigned char *p, *end; int bad; } Rd;

enum { V_NIL, V_BOOL, V_INT, V_FLOAT, V_STR, V_BIN, V_ARR, V_MAP, V_EXT, V_BAD };
typedef struct { int type; int64_t i; const char *s; uint32_t len; } Val;

static uint64_t rd_be(Rd *r, int bytes) {
  if (r->end - r->p < bytes) { r->bad = 1; r->p = r->end; return 0; }
  uint64_t v = 0;
  for (int i = 0; i < bytes; i++) v = v << 8 | r->p[i];
  r->p += bytes;
  return v;
}

static void rd_bytes(Rd *r, Val *v, uint32_t n) {
  if ((uint64_t)(r->end - r->p) < n) { r->bad = 1; v->type = V_BAD; return; }
  v->s = (const char *)r->p;
  v->len = n;
  r->p += n;
}

/** One value's head: scalars and strings whole, arrays and maps their element count (elements follow). */
static Val rd_val(Rd *r) {
  Val v = { V_BAD, 0, NULL, 0 };
  if (r->p >= r->end) { r->bad = 1; return v; }
  unsigned t = *r->p++;
  if (t < 0x80) { v.type = V_INT; v.i = t; }
  else if (t >= 0xe0) { v.type = V_INT; v.i = (int8_t)t; }
  else if (t < 0x90) { v.type = V_MAP; v.len = t & 15; }
  else if (t < 0xa0) { v.type = V_ARR; v.len = t & 15; }
  else if (t < 0xc0) { v.type = V_STR; rd_bytes(r, &v, t & 31); }
  else switch (t) {
    case 0xc0: v.type = V_NIL; break;
    case 0xc2: case 0xc3: v.type = V_BOOL; v.i = t & 1; break;
    case 0xc4: case 0xc5: case 0xc6: v.type = V_BIN; rd_bytes(r, &v, (uint32_t)rd_be(r, 1 << (t - 0xc4))); break;
    case 0xc7: case 0xc8: case 0xc9: { uint32_t n = (uint32_t)rd_be(r, 1 << (t - 0xc7)); rd_be(r, 1); v.type = V_EXT; rd_bytes(r, &v, n); break; }
    case 0xca: { uint32_t u = (uint32_t)rd_be(r, 4); float f; memcpy(&f, &u, 4); v.type = V_FLOAT; v.i = (int64_t)f; break; }
    case 0xcb: { uint64_t u = rd_be(r, 8); double d; memcpy(&d, &u, 8); v.type = V_FLOAT; v.i = (int64_t)d; break; }
    case 0xcc: case 0xcd: case 0xce: case 0xcf: v.type = V_INT; v.i = (int64_t)rd_be(r, 1 << (t - 0xcc)); break;
    case 0xd0: v.type = V_INT; v.i = (int8_t)rd_be(r, 1); break;
    case 0xd1: v.type = V_INT; v.i = (int16_t)rd_be(r, 2); break;
    case 0xd2: v.type = V_INT; v.i = (int32_t)rd_be(r, 4); break;
    case 0xd3: v.type = V_INT; v.i = (int64_t)rd_be(r, 8); break;
    case 0xd4: case 0xd5: case 0xd6: case 0xd7: case 0xd8: rd_be(r, 1); v.type = V_EXT; rd_bytes(r, &v, 1u << (t - 0xd4)); break;
    case 0xd9: case 0xda: case 0xdb: v.type = V_STR; rd_bytes(r, &v, (uint32_t)rd_be(r, 1 << (t - 0xd9))); break;
    case 0xdc: case 0xdd: v.type = V_ARR; v.len = (uint32_t)rd_be(r, 2 << (t - 0xdc)); break;
    case 0xde: case 0xdf: v.type = V_MAP; v.len = (uint32_t)rd_be(r, 2 << (t - 0xde)); break;
    default: r->bad = 1; break;
  }
  if (r->bad) v.type = V_BAD;
  return v;
}

static void rd_skip(Rd *r, Val v, int depth) {
  if (depth > 32) { r->bad = 1; return; }
  uint64_t n = v.type == V_ARR ? v.len : v.type == V_MAP ? 2ull * v.len : 0;
  for (uint64_t i = 0; i < n && !r->bad; i++) rd_skip(r, rd_val(r), depth + 1);
}

static char *dup_val(Val v) {
  if (v.type != V_STR) return NULL;
  char *s = malloc((size_t)v.len + 1);
  if (!s) return NULL;
  memcpy(s, v.s, v.len);
  s[v.len] = 0;
  return s;
}

static int key_is(Val k, const char *name) {
  return k.type == V_STR && k.len == strlen(name) && memcmp(k.s, name, k.len) == 0;
}

/** The fields of the daemon's messages this client reads. */
typedef struct {
  char *t;
  int64_t id, proto, want, code;
  char *version, *stamp, *cacheDir, *err, *message, *nonce, *proof;
  int fallback;
  int has_auth;
  char *auth_kind, *auth_path;
  int64_t auth_r, auth_w;
} Msg;

static void rd_auth(Rd *r, Val m, Msg *out) {
  out->has_auth = 1;
  out->auth_r = out->auth_w = -1;
  for (uint32_t i = 0; i < m.len && !r->bad; i++) {
    Val k = rd_val(r), v = rd_val(r);
    if (key_is(k, "kind")) out->auth_kind = dup_val(v);
    else if (key_is(k, "path")) out->auth_path = dup_val(v);
    else if (key_is(k, "r") && v.type == V_INT) out->auth_r = v.i;
    else if (key_is(k, "w") && v.type == V_INT) out->auth_w = v.i;
    else rd_skip(r, v, 1);
  }
}

static int parse_msg(const unsigned char *p, size_t n, Msg *out) {
  memset(out, 0, sizeof *out);
  Rd r = { p, p + n, 0 };
  Val m = rd_val(&r);
  if (m.type != V_MAP) return -1;
  for (uint32_t i = 0; i < m.len && !r.bad; i++) {
    Val k = rd_val(&r), v = rd_val(&r);
    if (key_is(k, "t")) out->t = dup_val(v);
    else if (key_is(k, "id") && v.type == V_INT) out->id = v.i;
    else if (key_is(k, "proto") && v.type == V_INT) out->proto = v.i;
    else if (key_is(k, "want") && (v.type == V_INT || v.type == V_FLOAT)) out->want = v.i;
    else if (key_is(k, "code") && (v.type == V_INT || v.type == V_FLOAT)) out->code = v.i;
    else if (key_is(k, "version")) out->version = dup_val(v);
    else if (key_is(k, "stamp")) out->stamp = dup_val(v);
    else if (key_is(k, "cacheDir")) out->cacheDir = dup_val(v);
    else if (key_is(k, "stderr")) out->err = dup_val(v);
    else if (key_is(k, "message")) out->message = dup_val(v);
    else if (key_is(k, "nonce")) out->nonce = dup_val(v);
    else if (key_is(k, "proof")) out->proof = dup_val(v);
    else if (key_is(k, "fallback") && v.type == V_BOOL) out->fallback = (int)v.i;
    else if (key_is(k, "auth") && v.type == V_MAP) rd_auth(&r, v, out);
    else rd_skip(&r, v, 1);
  }
  return r.bad || !out->t ? -1 : 0;
}

// ---------------------------------------------------------------------------------------------------
// The connection: frames of (u32 BE length, msgpack map), as protocol/messages.ts.

static int sock = -1;

static int send_frame(Buf *body) {
  unsigned char head[4] = { (unsigned char)(body->n >> 24), (unsigned char)(body->n >> 16), (unsigned char)(body->n >> 8), (unsigned char)body->n };
  struct iovec iov[2] = { { head, 4 }, { body->p, body->n } };
  struct msghdr mh = { 0 };
  mh.msg_iov = iov;
  mh.msg_iovlen = 2;
  size_t left = 4 + body->n;
  while (left > 0) {
    ssize_t w = sendmsg(sock, &mh, MSG_NOSIGNAL);
    if (w < 0) { if (errno == EINTR) continue; return -1; }
    left -= (size_t)w;
    while (w > 0 && mh.msg_iovlen > 0) {
      if ((size_t)w >= mh.msg_iov->iov_len) { w -= (ssize_t)mh.msg_iov->iov_len; mh.msg_iov++; mh.msg_iovlen--; }
      else { mh.msg_iov->iov_base = (char *)mh.msg_iov->iov_base + w; mh.msg_iov->iov_len -= (size_t)w; w = 0; }
    }
  }
  body->n = 0;
  return 0;
}

static int read_full(unsigned char *p, size_t n, int timeout_ms) {
  while (n > 0) {
    if (timeout_ms >= 0) {
      struct pollfd pf = { sock, POLLIN, 0 };
      int k = poll(&pf, 1, timeout_ms);
      if (k < 0 && errno == EINTR) continue;
      if (k <= 0) return -1;
    }
    ssize_t got = read(sock, p, n);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return -1;
    p += got;
    n -= (size_t)got;
  }
  return 0;
}

/** The next message; -1 when the connection failed or the frame is malformed. */
static int recv_msg(Msg *m, int timeout_ms) {
  unsigned char head[4];
  if (read_full(head, 4, timeout_ms) < 0) return -1;
  uint32_t n = (uint32_t)head[0] << 24 | (uint32_t)head[1] << 16 | (uint32_t)head[2] << 8 | head[3];
  if (n > 256u * 1024 * 1024) return -1;
  unsigned char *body = malloc(n ? n : 1);
  if (!body || read_full(body, n, timeout_ms) < 0) return -1;
  int rc = parse_msg(body, n, m);
  free(body);
  return rc;
}

// ---------------------------------------------------------------------------------------------------
// Where the daemon is (protocol/paths.ts: cacheDir, socketPath)

/** `dir` + "/" + `name` without doubling slashes at the join. */
static char *join2(const char *dir, const char *name) {
  size_t n = strlen(dir);
  while (n > 1 && dir[n - 1] == '/') n--;
  char *s = malloc(n + strlen(name) + 2);
  if (!s) return NULL;
  memcpy(s, dir, n);
  s[n] = 0;
  if (!(n == 1 && dir[0] == '/')) strcat(s, "/");
  strcat(s, name);
  return s;
}

static const char *env_nonempty(const char *k) {
  const char *v = getenv(k);
  return v && *v ? v : NULL;
}

static char *cache_dir(void) {
  const char *d = env_nonempty("PTXD_CACHE_DIR");
  if (d) return strdup(d);
  const char *home = env_nonempty("HOME");
  if (!home) {
    struct passwd *pw = getpwuid(getuid());
    home = pw ? pw->pw_dir : "/";
  }
  return join2(home, ".cache/ptxd");
}

static char *socket_path(const char *cache) {
  const char *s = env_nonempty("PTXD_SOCKET");
  if (s) return strdup(s);
  // 64-bit FNV-1a of "<cache dir>\0<install dir>", as fnv1a64 in protocol/paths.ts
  uint64_t h = 0xcbf29ce484222325ull;
  const char *parts[2] = { cache, PTXD_INSTALL_DIR };
  for (int i = 0; i < 2; i++) {
    for (const unsigned char *p = (const unsigned char *)parts[i]; *p; p++) { h ^= *p; h *= 0x100000001b3ull; }
    if (i == 0) { h ^= 0; h *= 0x100000001b3ull; }
  }
  char name[32];
  snprintf(name, sizeof name, "%012llx.sock", (unsigned long long)(h >> 16));
  const char *xdg = env_nonempty("XDG_RUNTIME_DIR");
  char *base;
  if (xdg) base = join2(xdg, "ptxd");
  else {
    const char *tmp = env_nonempty("TMPDIR");
    if (!tmp) tmp = env_nonempty("TMP");
    if (!tmp) tmp = env_nonempty("TEMP");
    if (!tmp) tmp = "/tmp";
    char sub[32];
    snprintf(sub, sizeof sub, "ptxd-%u", (unsigned)getuid());
    base = join2(tmp, sub);
  }
  return base ? join2(base, name) : NULL;
}

/**
 * Connects to the daemon's socket only if the socket and its directory are ours, the directory is 0700
 * and not a symlink (protocol/auth.ts checkSocketDir, checkSocketFile), and the peer runs as us: before
 * these checks pass, nothing is sent.
 */
static int connect_daemon(const char *path) {
  struct sockaddr_un a = { 0 };
  if (strlen(path) >= sizeof a.sun_path) return -1;
  char *dir = strdup(path);
  if (!dir) return -1;
  char *slash = strrchr(dir, '/');
  if (slash) *slash = 0;
  struct stat st;
  int ok = lstat(slash ? (*dir ? dir : "/") : ".", &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == getuid() &&
           (st.st_mode & 077) == 0;
  free(dir);
  if (!ok || lstat(path, &st) != 0 || !S_ISSOCK(st.st_mode) || st.st_uid != getuid()) return -1;
  a.sun_family = AF_UNIX;
  strcpy(a.sun_path, path);
  sock = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (sock < 0) return -1;
  struct ucred cred;
  socklen_t len = sizeof cred;
  if (connect(sock, (struct sockaddr *)&a, sizeof a) < 0 ||
      getsockopt(sock, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0 || cred.uid != getuid()) {
    close(sock);
    sock = -1;
    return -1;
  }
  return 0;
}

// ---------------------------------------------------------------------------------------------------
// SHA-256 (FIPS 180-4) and HMAC (RFC 2104): the proofs of protocol/auth.ts, without a crypto library.

typedef struct { uint32_t h[8]; unsigned char blk[64]; size_t used; uint64_t bytes; } Sha256;

static const uint32_t K256[64] = {
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static uint32_t ror(uint32_t x, int n) { return x >> n | x << (32 - n); }

static void sha_block(Sha256 *c, const unsigned char *p) {
  uint32_t w[64];
  for (int i = 0; i < 16; i++) w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 | (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
  for (int i = 16; i < 64; i++) {
    uint32_t s0 = ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ (w[i - 15] >> 3);
    uint32_t s1 = ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ (w[i - 2] >> 10);
    w[i] = w[i - 16] + s0 + w[i - 7] + s1;
  }
  uint32_t a = c->h[0], b = c->h[1], cc = c->h[2], d = c->h[3], e = c->h[4], f = c->h[5], g = c->h[6], h = c->h[7];
  for (int i = 0; i < 64; i++) {
    uint32_t t1 = h + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) + ((e & f) ^ (~e & g)) + K256[i] + w[i];
    uint32_t t2 = (ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) + ((a & b) ^ (a & cc) ^ (b & cc));
    h = g; g = f; f = e; e = d + t1; d = cc; cc = b; b = a; a = t1 + t2;
  }
  c->h[0] += a; c->h[1] += b; c->h[2] += cc; c->h[3] += d; c->h[4] += e; c->h[5] += f; c->h[6] += g; c->h[7] += h;
}

static void sha_init(Sha256 *c) {
  static const uint32_t h0[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };
  memcpy(c->h, h0, sizeof h0);
  c->used = 0;
  c->bytes = 0;
}

static void sha_update(Sha256 *c, const void *data, size_t n) {
  const unsigned char *p = data;
  c->bytes += n;
  while (n > 0) {
    size_t k = 64 - c->used < n ? 64 - c->used : n;
    memcpy(c->blk + c->used, p, k);
    c->used += k;
    p += k;
    n -= k;
    if (c->used == 64) { sha_block(c, c->blk); c->used = 0; }
  }
}

static void sha_final(Sha256 *c, unsigned char out[32]) {
  uint64_t bits = c->bytes * 8;
  unsigned char pad = 0x80, zero = 0, len[8];
  sha_update(c, &pad, 1);
  while (c->used != 56) sha_update(c, &zero, 1);
  for (int i = 0; i < 8; i++) len[i] = (unsigned char)(bits >> (56 - 8 * i));
  sha_update(c, len, 8);
  for (int i = 0; i < 8; i++) { out[4 * i] = (unsigned char)(c->h[i] >> 24); out[4 * i + 1] = (unsigned char)(c->h[i] >> 16); out[4 * i + 2] = (unsigned char)(c->h[i] >> 8); out[4 * i + 3] = (unsigned char)c->h[i]; }
}

/** HMAC-SHA256(key, msg) as 64 hex digits (key no longer than a block: ours is 64 bytes). */
static void hmac_hex(const char *key, size_t keylen, const char *msg, size_t n, char out[65]) {
  unsigned char k[64] = { 0 }, ipad[64], opad[64], inner[32], mac[32];
  if (keylen > 64) keylen = 64;
  memcpy(k, key, keylen);
  for (int i = 0; i < 64; i++) { ipad[i] = k[i] ^ 0x36; opad[i] = k[i] ^ 0x5c; }
  Sha256 c;
  sha_init(&c); sha_update(&c, ipad, 64); sha_update(&c, msg, n); sha_final(&c, inner);
  sha_init(&c); sha_update(&c, opad, 64); sha_update(&c, inner, 32); sha_final(&c, mac);
  for (int i = 0; i < 32; i++) snprintf(out + 2 * i, 3, "%02x", mac[i]);
}

/** The proof of `side` (protocol/auth.ts proof): HMAC(key, "ptxd-<side>\0<peer nonce>\0<own nonce>"). */
static void make_proof(const char *key, const char *side, const char *peer, const char *own, char out[65]) {
  char msg[256];
  int n = snprintf(msg, sizeof msg, "ptxd-%s%c%s%c%s", side, 0, peer, 0, own);
  hmac_hex(key, strlen(key), msg, (size_t)n, out);
}

static int is_hex64(const char *s) {
  if (!s || strlen(s) != 64) return 0;
  for (const char *p = s; *p; p++) if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f'))) return 0;
  return 1;
}

/** The daemon's key from `<socket>.key`: ours, 0600, not a symlink, 64 hex digits; 0 on success. */
static int read_key(const char *path, char key[65]) {
  char *kp = malloc(strlen(path) + 5);
  if (!kp) return -1;
  strcpy(kp, path);
  strcat(kp, ".key");
  int fd = open(kp, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  free(kp);
  if (fd < 0) return -1;
  struct stat st;
  ssize_t n = -1;
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == getuid() && (st.st_mode & 077) == 0 && st.st_size == 64)
    n = read(fd, key, 64);
  close(fd);
  if (n != 64) return -1;
  key[64] = 0;
  return is_hex64(key) ? 0 : -1;
}

/** 32 random bytes as 64 hex digits; 0 on success. */
static int new_nonce(char out[65]) {
  unsigned char r[32];
  size_t got = 0;
  while (got < sizeof r) {
    ssize_t k = getrandom(r + got, sizeof r - got, 0);
    if (k < 0) { if (errno == EINTR) continue; return -1; }
    got += (size_t)k;
  }
  for (int i = 0; i < 32; i++) snprintf(out + 2 * i, 3, "%02x", r[i]);
  return 0;
}

/** Equal without an early exit (the comparison time says nothing about the proof). */
static int same_proof(const char *a, const char *b) {
  if (!is_hex64(a) || !is_hex64(b)) return 0;
  unsigned char d = 0;
  for (int i = 0; i < 64; i++) d |= (unsigned char)(a[i] ^ b[i]);
  return d == 0;
}

// ---------------------------------------------------------------------------------------------------
// The environment the daemon may see (daemon/client-env.ts).

static const char ENV_VARS[] = PTXD_ENV_VARS;

/** The variable `--trace-env NAME` names (the last one, as the daemon's parser takes it). */
static const char *trace_env(int argc, char **argv) {
  const char *name = NULL;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--trace-env") == 0 && i + 1 < argc) name = argv[++i];
    else if (strncmp(argv[i], "--trace-env=", 12) == 0) name = argv[i] + 12;
  }
  return name;
}

/** `entry` (NAME=value) is one the daemon may see. */
static int env_allowed(const char *entry, const char *trace) {
  const char *eq = strchr(entry, '=');
  if (!eq) return 0;
  size_t n = (size_t)(eq - entry);
  if (trace && strlen(trace) == n && memcmp(entry, trace, n) == 0) return 1;
  for (const char *v = ENV_VARS; *v; v += strlen(v) + 1) if (strlen(v) == n && memcmp(entry, v, n) == 0) return 1;
  return 0;
}

static int str_eq(const char *a, const char *b) { return a && b && strcmp(a, b) == 0; }

/** argv[1] is the real cicc `--cicc-prefix` put there (client/cicc.ts splitRealCicc). */
static int real_cicc_arg(const char *a) {
  size_t n = strlen(a);
  return a[0] != '-' && (strcmp(a, "cicc") == 0 || (n >= 5 && strcmp(a + n - 5, "/cicc") == 0));
}

// ---------------------------------------------------------------------------------------------------

static void write_all(int fd, const char *s) {
  size_t n = strlen(s);
  while (n > 0) {
    ssize_t w = write(fd, s, n);
    if (w < 0) { if (errno == EINTR) continue; return; }
    s += w;
    n -= (size_t)w;
  }
}

/** {t, id, n}: the answers about make tokens. */
static int send_count(Buf *b, const char *t, int64_t id, long n) {
  mp_map(b, 3);
  kv_str(b, "t", t);
  kv_uint(b, "id", (uint64_t)id);
  kv_uint(b, "n", (uint64_t)n);
  return send_frame(b);
}

/** The connection failed after the request went out: give the tokens back and let the Node client retry. */
static void lost(void) {
  release_tokens();
  if (sock >= 0) close(sock);
  run_node();
}

int main(int argc, char **argv) {
  g_argc = argc;
  g_argv = argv;
  struct timeval tv;
  gettimeofday(&tv, NULL);
  double t0 = (double)tv.tv_sec * 1000.0 + (double)(tv.tv_usec / 1000);

  // The Node client owns these modes.
  const char *d = getenv("PTXD_DAEMON");
  if (getenv("PTXD_CAPTURE_DIR") || str_eq(getenv("PTXD_NATIVE"), "0") ||
      (d && (strcmp(d, "0") == 0 || strcmp(d, "off") == 0 || strcmp(d, "false") == 0))) run_node();

  char *cache = cache_dir();
  char *path = cache ? socket_path(cache) : NULL;
  if (!path || connect_daemon(path) < 0) run_node();   // not running: the Node client starts it

  char nonce[65], key[65], mine[65];
  if (new_nonce(nonce) < 0) { close(sock); run_node(); }
  Buf b = { 0 };
  mp_map(&b, 6);
  kv_str(&b, "t", "hello");
  kv_str(&b, "nonce", nonce);
  kv_uint(&b, "proto", PTXD_PROTO);
  kv_str(&b, "version", PTXD_VERSION);
  kv_str(&b, "stamp", PTXD_STAMP);
  kv_str(&b, "cacheDir", cache);
  Msg m;
  memset(&m, 0, sizeof m);
  if (send_frame(&b) < 0 || recv_msg(&m, 30000) < 0 || !str_eq(m.t, "welcome") || m.proto != PTXD_PROTO ||
      !str_eq(m.version, PTXD_VERSION) || !str_eq(m.stamp, PTXD_STAMP) || !str_eq(m.cacheDir, cache)) {
    close(sock);
    if (str_eq(getenv("PTXD_VERBOSE"), "1") && m.stamp && !str_eq(m.stamp, PTXD_STAMP))
      fprintf(stderr, "ptxd: the daemon runs build %s, this native client is build %s: using the Node client "
              "(`npm run build` rebuilds both)\n", m.stamp, PTXD_STAMP);
    run_node();   // another build: the Node client replaces it (or stays away from a newer one)
  }
  // The daemon proves it holds the key (read now: it is written before the daemon serves anyone).
  if (!is_hex64(m.nonce) || read_key(path, key) < 0) { close(sock); run_node(); }
  make_proof(key, "daemon", nonce, m.nonce, mine);
  if (!same_proof(mine, m.proof)) {
    close(sock);
    if (str_eq(getenv("PTXD_VERBOSE"), "1")) fprintf(stderr, "ptxd: the daemon on %s did not prove it holds its key: using the Node client\n", path);
    run_node();   // which refuses it too and compiles in-process
  }
  make_proof(key, "client", m.nonce, nonce, mine);
  mp_map(&b, 2);
  kv_str(&b, "t", "auth");
  kv_str(&b, "proof", mine);
  if (send_frame(&b) < 0) { close(sock); run_node(); }

  char cwd[8192];
  if (!getcwd(cwd, sizeof cwd)) run_node();

  signal(SIGINT, on_signal);
  signal(SIGTERM, on_signal);
  signal(SIGHUP, on_signal);

  const char *trace = trace_env(argc, argv);
  uint32_t nenv = 0;
  for (char **e = environ; *e; e++) if (env_allowed(*e, trace)) nenv++;
  mp_map(&b, 8);
  kv_str(&b, "t", "cicc");
  kv_uint(&b, "id", 1);
  mp_cstr(&b, "argv");
  mp_arr(&b, (uint32_t)(argc - 1));
  for (int i = 1; i < argc; i++) mp_cstr(&b, argv[i]);
  mp_cstr(&b, "env");
  mp_map(&b, nenv);
  for (char **e = environ; *e; e++) {
    if (!env_allowed(*e, trace)) continue;
    const char *eq = strchr(*e, '=');
    mp_str(&b, *e, (size_t)(eq - *e));
    mp_cstr(&b, eq + 1);
  }
  kv_str(&b, "cwd", cwd);
  kv_uint(&b, "pid", (uint64_t)getpid());
  kv_uint(&b, "ppid", (uint64_t)getppid());
  mp_cstr(&b, "t0");
  mp_double(&b, t0);
  if (send_frame(&b) < 0) lost();

  for (;;) {
    if (recv_msg(&m, -1) < 0) lost();
    if (str_eq(m.t, "tokens")) {
      long n = 0;
      if (m.has_auth && m.auth_kind && open_jobserver(m.auth_kind, m.auth_path, (long)m.auth_r, (long)m.auth_w) == 0) n = take_tokens((long)m.want);
      if (send_count(&b, "tokens-got", m.id, n) < 0) lost();
    } else if (str_eq(m.t, "tokens-back")) {
      if (send_count(&b, "tokens-returned", m.id, release_tokens()) < 0) lost();
    } else if (str_eq(m.t, "cicc-done")) {
      release_tokens();
      close(sock);
      if (m.err) write_all(2, m.err);
      if (m.fallback) {
        // A fallback: the real cicc nvcc named (our argv[1]) runs with our argv; whatever else the answer
        // says, we run nothing the daemon names. Without it (or when it cannot run) the Node client finds one.
        if (argc > 1 && real_cicc_arg(argv[1])) {
          setenv("PTXD_IN_FALLBACK", "1", 1);
          execv(argv[1], argv + 1);
          unsetenv("PTXD_IN_FALLBACK");
        }
        run_node();
      }
      return (int)m.code;
    } else {
      lost();   // an error answer (shutting down, a failed compile): the Node client retries
    }
  }
}
