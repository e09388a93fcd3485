// ptxd-cicc, native: the fast path of the drop-in cicc.
//
// nvcc runs cicc once per unit and architecture, so the client's start-up is paid on every compile: Node
// alone takes 110-140 ms to start here, more than the daemon needs to answer from its cache or to compile
// a small unit. This client only carries the call to a running daemon of the same build: argv, the
// environment, cwd and pids go in a `cicc` message; the daemon parses argv, compiles, writes the outputs
// (client/cicc.ts runCiccForClient) and answers with the exit code and cicc's stderr, or with the real
// cicc to run instead (a fallback). It also takes make tokens for the daemon when asked (the protocol of
// client/jobserver.ts) and gives every one back on every way out it can catch.
//
// Anything else goes to the Node client (bin/ptxd-cicc run by node), which does the whole job itself:
// no daemon yet (it starts one), a daemon of another build, a lost connection, an error answer, capture
// mode, PTXD_DAEMON=0. So this file never decides anything about a compile; it is only faster.
//
// Built by scripts/build-native.js, which passes the build's identity as macros (PTXD_NODE, PTXD_SCRIPT,
// PTXD_INSTALL_DIR, PTXD_VERSION, PTXD_STAMP, PTXD_PROTO).

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <poll.h>
#include <unistd.h>

#if !defined(PTXD_NODE) || !defined(PTXD_SCRIPT) || !defined(PTXD_INSTALL_DIR) || !defined(PTXD_VERSION) || \
    !defined(PTXD_STAMP) || !defined(PTXD_PROTO)
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
  char *version, *stamp, *cacheDir, *err, *message;
  int has_auth;
  char *auth_kind, *auth_path;
  int64_t auth_r, auth_w;
  char **exec;   // NULL-terminated
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
    else if (key_is(k, "auth") && v.type == V_MAP) rd_auth(&r, v, out);
    else if (key_is(k, "exec") && v.type == V_ARR && v.len > 0) {
      out->exec = calloc((size_t)v.len + 1, sizeof *out->exec);
      if (!out->exec) return -1;
      for (uint32_t j = 0; j < v.len && !r.bad; j++) {
        out->exec[j] = dup_val(rd_val(&r));
        if (!out->exec[j]) return -1;
      }
    } else rd_skip(&r, v, 1);
  }
  return r.bad || !out->t ? -1 : 0;
}

// ---------------------------------------------------------------------------------------------------
// The connection: frames of (u32 BE length, msgpack map), as daemon/protocol.ts.

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
// Where the daemon is (daemon/paths.ts: cacheDir, socketPath)

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
  // 64-bit FNV-1a of "<cache dir>\0<install dir>", as fnv1a64 in daemon/paths.ts
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

/** Connects to the daemon's socket if it is in a directory of ours (daemon/client.ts checkSocketDir). */
static int connect_daemon(const char *path) {
  struct sockaddr_un a = { 0 };
  if (strlen(path) >= sizeof a.sun_path) return -1;
  char *dir = strdup(path);
  char *slash = dir ? strrchr(dir, '/') : NULL;
  if (slash) {
    *slash = 0;
    struct stat st;
    if (stat(*dir ? dir : "/", &st) == 0 && st.st_uid != getuid()) return -1;
  }
  free(dir);
  a.sun_family = AF_UNIX;
  strcpy(a.sun_path, path);
  sock = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (sock < 0) return -1;
  if (connect(sock, (struct sockaddr *)&a, sizeof a) < 0) { close(sock); sock = -1; return -1; }
  return 0;
}

static int str_eq(const char *a, const char *b) { return a && b && strcmp(a, b) == 0; }

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

  Buf b = { 0 };
  mp_map(&b, 5);
  kv_str(&b, "t", "hello");
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

  char cwd[8192];
  if (!getcwd(cwd, sizeof cwd)) run_node();

  signal(SIGINT, on_signal);
  signal(SIGTERM, on_signal);
  signal(SIGHUP, on_signal);

  uint32_t nenv = 0;
  for (char **e = environ; *e; e++) if (strchr(*e, '=')) nenv++;
  mp_map(&b, 8);
  kv_str(&b, "t", "cicc");
  kv_uint(&b, "id", 1);
  mp_cstr(&b, "argv");
  mp_arr(&b, (uint32_t)(argc - 1));
  for (int i = 1; i < argc; i++) mp_cstr(&b, argv[i]);
  mp_cstr(&b, "env");
  mp_map(&b, nenv);
  for (char **e = environ; *e; e++) {
    const char *eq = strchr(*e, '=');
    if (!eq) continue;
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
      if (m.exec) {
        // A fallback: the real cicc runs with the same argv, as the Node client would run it.
        setenv("PTXD_IN_FALLBACK", "1", 1);
        execv(m.exec[0], m.exec);
        fprintf(stderr, "ptxd-cicc: error: could not run the real cicc (%s): %s\n", m.exec[0], strerror(errno));
        return 1;
      }
      return (int)m.code;
    } else {
      lost();   // an error answer (shutting down, a failed compile): the Node client retries
    }
  }
}
