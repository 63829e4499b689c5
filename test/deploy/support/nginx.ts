// The shipped nginx configs run by a real nginx in front of an API on 127.0.0.1: deploy/nginx.conf as
// compose mounts it into conf.d, with only the two addresses compose's network provides swapped for
// local ones, and deploy/nginx-prefix.conf included in a server block as docs/operations.md says, with only its
// upstream's port changed. Debian's nginx (scripts/test and scripts/test-faults install it).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '@mo/test-support/service';

export const NGINX_CONF = join(REPO_ROOT, 'deploy/nginx.conf');
export const NGINX_PREFIX_CONF = join(REPO_ROOT, 'deploy/nginx-prefix.conf');

export function nginxBinary(): string | null {
  const r = spawnSync('sh', ['-c', 'command -v nginx || ls /usr/sbin/nginx'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim().split('\n')[0]! : null;
}

/** deploy/nginx.conf with its listen port and upstream made local; everything else as shipped. */
export function localisedConf(conf: string, listenPort: number, apiPort: number): string {
  const listen = /^(\s*)listen\s+80;/m;
  const upstream = /http:\/\/api:8080\b/g;
  if (!listen.test(conf) || !upstream.test(conf)) throw new Error('deploy/nginx.conf no longer has "listen 80;" and http://api:8080');
  return conf.replace(listen, `$1listen 127.0.0.1:${listenPort};`).replace(upstream, `http://127.0.0.1:${apiPort}`);
}

/** deploy/nginx-prefix.conf with its upstream (127.0.0.1:8080, the API's default) moved to apiPort. */
export function localisedPrefixConf(conf: string, apiPort: number): string {
  const upstream = /http:\/\/127\.0\.0\.1:8080\b/g;
  if (!upstream.test(conf)) throw new Error('deploy/nginx-prefix.conf no longer proxies to http://127.0.0.1:8080');
  return conf.replace(upstream, `http://127.0.0.1:${apiPort}`);
}

export interface RunningNginx {
  port: number;
  errorLog(): Promise<string>;
  stop(): Promise<void>;
}

function waitForPort(port: number, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      const s = connect(port, '127.0.0.1', () => {
        s.destroy();
        resolve();
      });
      s.on('error', () => {
        s.destroy();
        if (Date.now() > deadline) reject(new Error(`nginx did not listen on ${port}`));
        else setTimeout(attempt, 50);
      });
    };
    attempt();
  });
}

/** The shipped deploy/nginx.conf in front of the API on apiPort. */
export async function startNginx(opts: { listenPort: number; apiPort: number }): Promise<RunningNginx> {
  return startNginxWith({ listenPort: opts.listenPort, server: () => localisedConf(readFileSync(NGINX_CONF, 'utf8'), opts.listenPort, opts.apiPort) });
}

/**
 * The shipped deploy/nginx-prefix.conf, included in an otherwise empty server block as a user's own
 * server would include it, in front of the API on apiPort.
 */
export async function startPrefixNginx(opts: { listenPort: number; apiPort: number }): Promise<RunningNginx> {
  return startNginxWith({
    listenPort: opts.listenPort,
    server: (dir) => {
      const snippet = join(dir, 'media-organizer.conf');
      writeFileSync(snippet, localisedPrefixConf(readFileSync(NGINX_PREFIX_CONF, 'utf8'), opts.apiPort));
      return ['server {', `  listen 127.0.0.1:${opts.listenPort};`, `  include ${snippet};`, '}'].join('\n');
    },
  });
}

/** One nginx process (no master, no daemon) in a temp prefix, as the current user, serving the server block `server` writes. */
async function startNginxWith(opts: { listenPort: number; server: (dir: string) => string }): Promise<RunningNginx> {
  const bin = nginxBinary();
  if (!bin) throw new Error('nginx is not installed (apt-get install nginx; scripts/test and scripts/test-faults do)');
  const dir = await mkdtemp(join(tmpdir(), 'mo-nginx-'));
  for (const d of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi', 'logs']) await mkdir(join(dir, d));
  const server = opts.server(dir);
  const errorLog = join(dir, 'logs', 'error.log');
  await writeFile(
    join(dir, 'nginx.conf'),
    [
      `pid ${join(dir, 'nginx.pid')};`,
      `error_log ${errorLog} info;`,
      'events { worker_connections 256; }',
      'http {',
      '  access_log off;',
      `  client_body_temp_path ${join(dir, 'body')};`,
      `  proxy_temp_path ${join(dir, 'proxy')};`,
      `  fastcgi_temp_path ${join(dir, 'fastcgi')};`,
      `  uwsgi_temp_path ${join(dir, 'uwsgi')};`,
      `  scgi_temp_path ${join(dir, 'scgi')};`,
      // What the image's nginx.conf has around conf.d.
      '  default_type application/octet-stream;',
      '  keepalive_timeout 65;',
      server,
      '}',
      '',
    ].join('\n'),
  );
  const proc: ChildProcess = spawn(bin, ['-p', dir, '-e', errorLog, '-c', join(dir, 'nginx.conf'), '-g', 'daemon off; master_process off;'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<void>((r) => proc.once('exit', () => r()));
  try {
    await Promise.race([waitForPort(opts.listenPort, 10_000), exited.then(() => Promise.reject(new Error(`nginx exited: ${out}`)))]);
  } catch (err) {
    proc.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    port: opts.listenPort,
    errorLog: () => readFile(errorLog, 'utf8').catch(() => ''),
    async stop() {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGQUIT');
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}
