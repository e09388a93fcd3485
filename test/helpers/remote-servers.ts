// Real team-cache servers on loopback for the remote tests and the remote benchmark: a redis-server
// (Debian's) and `ptxd cache serve`, each in a directory of its own, stopped by the caller.
// redis-cli (shipped with redis-server) is the server-side oracle: it shows what a client really wrote.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import { createServer } from 'node:net';
import * as path from 'node:path';
import { REPO_ROOT, findTool } from './tools';

export const REDIS_SERVER = findTool('redis-server') ?? undefined;
export const REDIS_CLI = findTool('redis-cli') ?? undefined;
/** A skip message only when redis-server or redis-cli is really absent. */
export const redisSkip = REDIS_SERVER && REDIS_CLI ? undefined
  : 'skipped: redis-server/redis-cli not found (Debian: apt-get install redis-server; .ci/run installs it when it can)';

/** A free TCP port on 127.0.0.1 (asked of the kernel, then released for the server to take). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise(r => setTimeout(r, ms));

export interface RedisServer { port: number; url: string; proc: ChildProcess; cli(...args: string[]): string; stop(): void }

/** Starts redis-server (no persistence) on a free port and waits until it answers PING. */
export async function startRedis(dir: string): Promise<RedisServer> {
  fs.mkdirSync(dir, { recursive: true });
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    const proc = spawn(REDIS_SERVER!, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir,
      '--daemonize', 'no', '--logfile', path.join(dir, 'redis.log')], { stdio: 'ignore' });
    const cli = (...args: string[]) => {
      const r = spawnSync(REDIS_CLI!, ['-h', '127.0.0.1', '-p', String(port), ...args], { encoding: 'utf8', timeout: 10_000 });
      return (r.stdout ?? '').trim();
    };
    const stop = () => { try { proc.kill('SIGKILL'); } catch { /* gone */ } };
    for (let i = 0; i < 200 && proc.exitCode === null; i++) {
      if (cli('PING') === 'PONG') return { port, url: `redis://127.0.0.1:${port}/0`, proc, cli, stop };
      await sleep(50);
    }
    stop();
    if (attempt >= 2) throw new Error(`redis-server did not start (see ${path.join(dir, 'redis.log')})`);
  }
}

export interface ObjectServer { url: string; dir: string; proc: ChildProcess; objects(): string[]; stop(): void }

/** Starts `ptxd cache serve --port 0` (the built CLI) and reads the URL it prints. */
export async function startServe(dir: string, env: NodeJS.ProcessEnv, extraArgs: string[] = []): Promise<ObjectServer> {
  const objects = path.join(dir, 'objects');
  const proc = spawn(process.execPath, [path.join(REPO_ROOT, 'bin', 'ptxd'), 'cache', 'serve', '--port', '0', '--dir', objects, ...extraArgs],
    { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  const url = await new Promise<string>((resolve, reject) => {
    proc.stdout!.on('data', d => {
      text += d;
      const m = /listening on (http:\/\/\S+?)\/? /.exec(text);
      if (m) resolve(m[1]!);
    });
    proc.stderr!.on('data', d => { text += d; });
    proc.on('exit', code => reject(new Error(`ptxd cache serve exited (${code}): ${text}`)));
  });
  const list = (): string[] => {
    if (!fs.existsSync(objects)) return [];
    return fs.readdirSync(objects, { recursive: true, withFileTypes: true }).filter(e => e.isFile()).map(e => e.name).sort();
  };
  return { url, dir: objects, proc, objects: list, stop: () => { try { proc.kill('SIGKILL'); } catch { /* gone */ } } };
}

export const NGINX = findTool('nginx') ?? undefined;
export const nginxSkip = NGINX ? undefined
  : 'skipped: nginx not found (Debian: apt-get install nginx-light, which has the WebDAV module; .ci/run installs it when it can)';

/**
 * A stock nginx with its WebDAV module (PUT) on a free port, serving <dir>/objects: a team-cache HTTP
 * server that ptxd did not write. With `writeKey`, a PUT without `Authorization: Bearer <writeKey>` is
 * refused (403), as a team would configure it.
 */
export async function startNginxDav(dir: string, writeKey?: string): Promise<ObjectServer> {
  const objects = path.join(dir, 'objects');
  fs.mkdirSync(objects, { recursive: true });
  fs.mkdirSync(path.join(dir, 'tmp'), { recursive: true });
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    const guard = writeKey === undefined ? '' : `
      map $http_authorization $writer { default 0; "Bearer ${writeKey}" 1; }
      map "$request_method:$writer" $refuse { default 0; "PUT:0" 1; }`;
    fs.writeFileSync(path.join(dir, 'nginx.conf'), `
daemon off;
master_process off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${dir}/tmp;
  ${guard}
  server {
    listen 127.0.0.1:${port};
    root ${objects};
    client_max_body_size 256m;
    location / {
      ${writeKey === undefined ? '' : 'if ($refuse) { return 403; }'}
      dav_methods PUT;
      create_full_put_path on;
    }
  }
}
`);
    const proc = spawn(NGINX!, ['-p', dir, '-c', path.join(dir, 'nginx.conf')], { stdio: 'ignore' });
    const stop = () => { try { proc.kill('SIGKILL'); } catch { /* gone */ } };
    const url = `http://127.0.0.1:${port}`;
    for (let i = 0; i < 200 && proc.exitCode === null; i++) {
      const ok = await fetch(`${url}/probe`).then(r => r.status === 404, () => false);
      if (ok) {
        const list = () => fs.readdirSync(objects).sort();
        return { url, dir: objects, proc, objects: list, stop };
      }
      await sleep(50);
    }
    stop();
    if (attempt >= 2) throw new Error(`nginx did not start (see ${path.join(dir, 'error.log')})`);
  }
}
