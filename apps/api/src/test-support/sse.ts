/** One message of an event stream as a browser's EventSource sees it, or a comment line. */
export interface SseMessage {
  event: string;
  data: unknown;
  retry?: number;
  comment?: string;
}

/**
 * Reads an event stream's body message by message: `next` waits for the next one that matches,
 * keeping every message read in `seen`.
 */
export function sseReader(body: ReadableStream<Uint8Array>) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const seen: SseMessage[] = [];
  let buffer = '';
  let cursor = 0;

  function parse(block: string): SseMessage {
    const msg: SseMessage = { event: 'message', data: undefined };
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) msg.comment = line.slice(1).trim();
      else if (line.startsWith('event: ')) msg.event = line.slice(7);
      else if (line.startsWith('data: ')) data.push(line.slice(6));
      else if (line.startsWith('retry: ')) msg.retry = Number(line.slice(7));
    }
    if (data.length > 0) msg.data = JSON.parse(data.join('\n'));
    if (msg.comment !== undefined && data.length === 0) msg.event = 'comment';
    return msg;
  }

  async function fill(): Promise<boolean> {
    const { done, value } = await reader.read();
    if (done) return false;
    buffer += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      seen.push(parse(buffer.slice(0, end)));
      buffer = buffer.slice(end + 2);
    }
    return true;
  }

  return {
    seen,
    /** The next message (after those already returned) that matches; throws when the stream ends first. */
    async next(match: (m: SseMessage) => boolean = () => true): Promise<SseMessage> {
      for (;;) {
        while (cursor < seen.length) {
          const m = seen[cursor++]!;
          if (match(m)) return m;
        }
        if (!(await fill())) throw new Error(`the stream ended; seen: ${JSON.stringify(seen.map((m) => m.event))}`);
      }
    },
    /** Resolves once the server ends the stream, with whatever it sent until then. */
    async ended(): Promise<void> {
      while (await fill());
    },
    cancel: () => reader.cancel(),
  };
}
