// Plain node:http against a real API process: requests fetch() will not send (a GET with a body,
// a chunked body, lying lengths) and answers timed to the millisecond. 127.0.0.1 only.
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { TEST_API_KEY } from '@mo/test-support/service';

export interface Answer {
  status: number;
  text: string;
  ms: number;
  headers: Record<string, string | string[] | undefined>;
}

export interface SendOptions {
  body?: string | Buffer;
  headers?: Record<string, string | number>;
  /** Writes the body in 64 KiB pieces without a Content-Length (Transfer-Encoding: chunked). */
  chunked?: boolean;
  agent?: Agent | false;
  timeoutMs?: number;
  /** Sends no API key (by default every request carries the key temp installs keep). */
  anonymous?: boolean;
  /** The loopback address to send from (127.0.0.0/8), so that a client of its own can be played. */
  from?: string;
}

/** Resolves with status -1 (and the error text) when the connection fails or times out. */
export function send(port: number, method: string, path: string, opts: SendOptions = {}): Promise<Answer> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const body = opts.body === undefined ? undefined : Buffer.isBuffer(opts.body) ? opts.body : Buffer.from(opts.body);
    const headers: Record<string, string | number> = { ...(opts.anonymous ? {} : { 'x-api-key': TEST_API_KEY }), ...(opts.headers ?? {}) };
    if (body && !opts.chunked && headers['content-length'] === undefined) headers['content-length'] = body.length;
    const req = request({ host: '127.0.0.1', port, method, path, headers, agent: opts.agent ?? false, localAddress: opts.from }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), ms: performance.now() - t0, headers: res.headers }),
      );
      res.on('error', (err) => resolve({ status: -1, text: String(err), ms: performance.now() - t0, headers: {} }));
    });
    req.setTimeout(opts.timeoutMs ?? 15_000, () => req.destroy(new Error('timed out')));
    req.on('error', (err) => resolve({ status: -1, text: String(err), ms: performance.now() - t0, headers: {} }));
    if (body) {
      if (opts.chunked) for (let i = 0; i < body.length; i += 65536) req.write(body.subarray(i, i + 65536));
      else req.write(body);
    }
    req.end();
  });
}

export function json(a: Answer): any {
  try {
    return JSON.parse(a.text);
  } catch {
    return undefined;
  }
}

/** Sends raw bytes on a fresh connection and returns the status of the first answer (-1: none). */
export function raw(port: number, text: string | Buffer, timeoutMs = 5000): Promise<{ status: number; text: string }> {
  return new Promise((resolve) => {
    let out = '';
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      s.destroy();
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(out);
      resolve({ status: m ? Number(m[1]) : -1, text: out });
    };
    const s = connect(port, '127.0.0.1', () => s.end(text));
    s.on('data', (d) => (out += d));
    s.on('close', finish);
    s.on('error', finish);
    const timer = setTimeout(finish, timeoutMs);
  });
}
