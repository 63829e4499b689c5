import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export type FakeAnswer = { status: number; body?: string; type?: string } | 'hang';

export interface FakeTarget {
  /** http://127.0.0.1:<port> */
  base: string;
  seen: SeenRequest[];
  close(): Promise<void>;
}

/**
 * A notification target on loopback (a chat service, a media server): records each request as it
 * arrived, and answers what `answer` says for it ('hang': never).
 */
export async function fakeTarget(answer: (req: SeenRequest) => FakeAnswer = () => ({ status: 200, body: '{}' })): Promise<FakeTarget> {
  const seen: SeenRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const s = { method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      seen.push(s);
      const a = answer(s);
      if (a === 'hang') return;
      res.writeHead(a.status, { 'Content-Type': a.type ?? 'application/json' }).end(a.body ?? '');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
