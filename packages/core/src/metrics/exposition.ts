import { promisify } from 'node:util';
import { gzip } from 'node:zlib';

const compress = promisify(gzip);

/** Whether an Accept-Encoding header takes gzip (`gzip;q=0` refuses it). */
export function acceptsGzip(header: string | undefined): boolean {
  return !!header && /\bgzip\b(?!\s*;\s*q=0(?:\.0*)?\s*(?:,|$))/i.test(header);
}

/**
 * A scrape's text as the scraper takes it: gzipped where its Accept-Encoding allows (Prometheus
 * sends `gzip`). The text repeats its names and labels line after line, so it shrinks about tenfold.
 */
export async function encodeScrape(text: string, acceptEncoding: string | undefined): Promise<{ body: string | Uint8Array<ArrayBuffer>; gzip: boolean }> {
  return acceptsGzip(acceptEncoding) ? { body: (await compress(text)) as Uint8Array<ArrayBuffer>, gzip: true } : { body: text, gzip: false };
}
