// What a remote tier backend does: fetch and store opaque objects by name, each call bounded by the
// backend's own timeouts. A backend never retries and never waits for a server that does not answer:
// the tier above counts failures and stops asking (circuit breaker).

export interface RemoteBackend {
  /** The server, without credentials (for logs and stats). */
  readonly where: string;
  /** The object, or undefined when the server has none under `name`. Rejects on an error or a timeout. */
  get(name: string): Promise<Buffer | undefined>;
  /** Stores an object. Rejects on an error, a timeout or a refusal. */
  put(name: string, value: Buffer): Promise<void>;
  close(): void;
}

export interface BackendOptions {
  /** A read (GET). */
  timeoutMs: number;
  /** A write: writes are asynchronous, so they may take longer than a read without delaying anything. */
  writeTimeoutMs: number;
  connectTimeoutMs: number;
  /** Redis: expiry of written entries (0: none). */
  ttlSeconds: number;
  /** HTTP: sent as `Authorization: Bearer …` with a PUT. */
  writeKey?: string;
}

export class TimeoutError extends Error {
  constructor(what: string, ms: number) { super(`${what} timed out after ${ms} ms`); this.name = 'TimeoutError'; }
}
