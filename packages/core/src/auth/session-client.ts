import { isIP } from 'node:net';

/** Where a session was last used from, as the owner's list of open sessions shows it. */
export interface SessionClient {
  address: string | null;
  user_agent: string | null;
}

export const MAX_CLIENT_FIELD = 100;

/**
 * The peer's address, led by the first X-Forwarded-For entry when a proxy relayed the request.
 * Anyone may send that header, so the peer stays in view ("203.0.113.9 via 10.0.0.2") rather
 * than be replaced by what the client claims; an entry that is not an IP address is left out.
 */
export function clientAddress(peer: string | null, forwardedFor: string | undefined): string | null {
  const claimed = forwardedFor?.split(',')[0]?.trim();
  const forwarded = claimed && isIP(claimed) !== 0 ? claimed : null;
  if (peer === null) return forwarded;
  return forwarded !== null && forwarded !== peer ? `${forwarded} via ${peer}` : peer;
}

const OS: [RegExp, string][] = [
  [/\b(?:iPhone|iPad|iPod)\b/, 'iOS'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b|\bX11\b/, 'Linux'],
];

// Order matters: Edge and Opera also say Chrome, Chrome also says Safari.
const BROWSERS: [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\/(\d+)/, 'Edge'],
  [/\b(?:OPR|Opera)\/(\d+)/, 'Opera'],
  [/\b(?:Firefox|FxiOS)\/(\d+)/, 'Firefox'],
  [/\bHeadlessChrome\/(\d+)/, 'Headless Chrome'],
  [/\bChromium\/(\d+)/, 'Chromium'],
  [/\b(?:Chrome|CriOS)\/(\d+)/, 'Chrome'],
  [/\bVersion\/(\d+)[.\d]* (?:Mobile\/\S+ )?Safari\//, 'Safari'],
];

/**
 * A User-Agent header cut down to what a person recognises ("Firefox 128 on Linux"); a client that
 * is not a browser keeps its first product token ("curl/8.5.0"). Null when there is nothing to show.
 */
export function shortUserAgent(header: string | undefined): string | null {
  const ua = (header ?? '').replace(/[\p{Cc}\p{Cf}]/gu, '').trim();
  if (ua === '') return null;
  const os = OS.find(([re]) => re.test(ua))?.[1];
  for (const [re, name] of BROWSERS) {
    const m = re.exec(ua);
    if (m) return os ? `${name} ${m[1]} on ${os}` : `${name} ${m[1]}`;
  }
  return ua.split(/\s/)[0]!.slice(0, MAX_CLIENT_FIELD);
}
