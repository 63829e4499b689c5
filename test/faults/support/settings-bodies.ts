// Generated POST /api/settings bodies: valid ones in the nested, flat and mixed forms, and mutations
// of them, each with what CONTRACT.md says must happen: a 200 that applies exactly the patch, or a
// 400 that names the key path ("An unknown key or a wrong type is a 400 that names the key path;
// nothing is saved then"). Seeded, so a failing case is reproduced by its seed and number.
import type { Rng } from '@mo/test-support/prng';

export type Expect = 'accept' | 'reject' | 'either';

export interface SettingsCase {
  n: number;
  /** Mutation classes applied, for the summary ("valid", "wrong-type", "unknown-key", …). */
  kinds: string[];
  /** The request body as sent. */
  text: string;
  expect: Expect;
  /** For a reject: key paths of which the 400 must name at least one (empty: none to name, e.g. bad JSON). */
  keys: string[];
  /** For an accept: the body as the server must apply it (flat keys moved into `app`). */
  patch?: Record<string, unknown>;
}

export interface GeneratorContext {
  /**
   * Absolute folders valid as each of paths.downloads, paths.config and a drive path: inside the
   * allowed roots, none of one role overlapping one of another or the data folder, and the drives'
   * apart from one another (a drive may hold the downloads: the library folders judge that).
   */
  folders: { downloads: readonly string[]; config: readonly string[]; drives: readonly string[] };
  /** Base URL of a closed local port, for release_providers.tvmaze.url. */
  localUrl: string;
}

// ---------------------------------------------------------------------------------------------
// The settings schema, as CONTRACT.md and packages/shared describe it

type Leaf =
  | { t: 'bool' }
  | { t: 'int'; min: number; max: number }
  | { t: 'enum'; values: readonly string[] }
  | { t: 'string'; kind: 'folder' | 'video-ext' | 'subtitle-ext' | 'rel' | 'movie-template' | 'episode-template' | 'url' | 'drive' }
  | { t: 'string'; kind: 'abs'; role: keyof GeneratorContext['folders'] };
type Node = Leaf | { t: 'object'; keys: Record<string, Node> } | { t: 'array'; of: Node; min?: number; max?: number };

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const MAX_SAFE = Number.MAX_SAFE_INTEGER;

const APP: Record<string, Node> = {
  dry_run: { t: 'bool' },
  scan_interval_seconds: { t: 'int', min: 0, max: 31_536_000 },
  settle_seconds: { t: 'int', min: 0, max: 31_536_000 },
  watch: { t: 'bool' },
  library_scan_max_files: { t: 'int', min: 1, max: 100_000_000 },
  library_scan_timeout_seconds: { t: 'int', min: 1, max: 604_800 },
  log_level: { t: 'enum', values: LOG_LEVELS },
};
const FLAT_KEYS = ['dry_run', 'scan_interval_seconds', 'settle_seconds', 'library_scan_max_files', 'library_scan_timeout_seconds', 'log_level'];

const SECTIONS: Record<string, Node> = {
  app: { t: 'object', keys: APP },
  paths: { t: 'object', keys: { downloads: { t: 'string', kind: 'abs', role: 'downloads' }, config: { t: 'string', kind: 'abs', role: 'config' } } },
  drives: { t: 'array', of: { t: 'object', keys: { name: { t: 'string', kind: 'drive' }, path: { t: 'string', kind: 'abs', role: 'drives' } } } },
  library: {
    t: 'object',
    keys: {
      movie_folders: { t: 'array', of: { t: 'string', kind: 'folder' } },
      tv_folders: { t: 'array', of: { t: 'string', kind: 'folder' } },
      video_extensions: { t: 'array', of: { t: 'string', kind: 'video-ext' }, min: 1 },
      subtitle_extensions: { t: 'array', of: { t: 'string', kind: 'subtitle-ext' } },
      movie_template: { t: 'string', kind: 'movie-template' },
      episode_template: { t: 'string', kind: 'episode-template' },
      sample_max_bytes: { t: 'int', min: 0, max: MAX_SAFE },
      transfer: { t: 'enum', values: ['move', 'hardlink', 'copy'] },
    },
  },
  metadata: {
    t: 'object',
    keys: { read_nfo: { t: 'bool' }, include_specials: { t: 'bool' }, identify: { t: 'array', of: { t: 'enum', values: ['tvmaze'] }, max: 1 } },
  },
  theme: { t: 'object', keys: { css_file: { t: 'string', kind: 'rel' } } },
  release_providers: {
    t: 'object',
    keys: { tvmaze: { t: 'object', keys: { enabled: { t: 'bool' }, url: { t: 'string', kind: 'url' } } } },
  },
};

/** The schema node at a body path: top-level flat keys are app keys; null inside anything unknown. */
function nodeAt(path: readonly (string | number)[]): Node | null {
  if (path.length === 0) return null;
  const [head, ...rest] = path;
  let node: Node | undefined = FLAT_KEYS.includes(String(head)) ? APP[String(head)] : SECTIONS[String(head)];
  for (const step of rest) {
    if (!node) return null;
    if (node.t === 'object') node = Object.hasOwn(node.keys, String(step)) ? node.keys[String(step)] : undefined;
    else if (node.t === 'array') node = typeof step === 'number' ? node.of : undefined;
    else return null;
  }
  return node ?? null;
}

/** How the server names a body path: flat keys are reported inside `app`. */
function keyName(path: readonly (string | number)[]): string {
  const p = path.length > 0 && FLAT_KEYS.includes(String(path[0])) ? ['app', ...path] : path;
  return p.map(String).join('.');
}

// ---------------------------------------------------------------------------------------------
// Valid values

function validLeaf(r: Rng, leaf: Leaf, ctx: GeneratorContext): unknown {
  switch (leaf.t) {
    case 'bool':
      return r.chance(0.5);
    case 'int':
      return r.pick([leaf.min, leaf.max, r.int(leaf.min, Math.min(leaf.max, 1_000_000)), leaf.min + 1]);
    case 'enum':
      return r.pick(leaf.values);
    case 'string':
      switch (leaf.kind) {
        case 'abs':
          return r.pick(ctx.folders[leaf.role]);
        case 'folder':
          return r.pick(['Movies', 'Films', 'TV', 'TV Shows', 'Séries', 'Kids (old)', 'a'.repeat(200), '...x', '.hidden']);
        case 'video-ext':
          return r.pick(['.mkv', '.mp4', '.avi', '.m2ts', '.webm', '.ts', '.ogv']);
        case 'subtitle-ext':
          return r.pick(['.srt', '.ass', '.vtt', '.sup', '.smi']);
        case 'rel':
          return r.pick(['custom-theme.css', 'themes/dark.css', 'a b.css', '.hidden.css', 'missing.css', 'x..y.css']);
        case 'movie-template':
          return r.pick(['{title} ({year})/{title} ({year}){ext}', '{title}{ext}', `${'x'.repeat(498)}{title}{ext}`, '{title} [{edition}] {air_date}{ext}']);
        case 'episode-template':
          return r.pick([
            '{series}/Season {season:00}/{series} - S{season:00}E{episode:00}{ext}',
            '{series} {season}x{episode}{ext}',
            `{series}/${'x'.repeat(485)}{episode}{ext}`,
          ]);
        case 'url':
          return r.pick([ctx.localUrl, `${ctx.localUrl}/v1`, `${ctx.localUrl}/?q=1#f`, ctx.localUrl.replace('http://', 'http://user:hunter2pw@')]);
        case 'drive':
          return r.pick(['disk1', 'disk2', 'media_3', 'A.b-c', 'x'.repeat(64)]);
      }
  }
}

function validDrives(r: Rng, ctx: GeneratorContext): unknown[] {
  const names = ['disk1', 'disk2', 'media_3', 'A.b-c', 'x'.repeat(64)];
  const n = r.int(0, 3);
  const out: unknown[] = [];
  // Each drive a folder of its own: two on one folder are refused.
  const paths = [...ctx.folders.drives];
  for (let i = 0; i < n && paths.length > 0; i++) out.push({ name: names[i], path: paths.splice(r.int(0, paths.length - 1), 1)[0] });
  return out;
}

function validSection(r: Rng, name: string, ctx: GeneratorContext): unknown {
  if (name === 'drives') return validDrives(r, ctx);
  const node = SECTIONS[name]! as { t: 'object'; keys: Record<string, Node> };
  const out: Record<string, unknown> = {};
  for (const [k, child] of Object.entries(node.keys)) {
    if (!r.chance(0.5)) continue;
    if (child.t === 'object') out[k] = validObject(r, child, ctx);
    else if (child.t === 'array') {
      const n = r.int(child.min ?? 0, child.max ?? 4);
      out[k] = Array.from({ length: n }, () => validLeaf(r, child.of as Leaf, ctx));
    } else out[k] = validLeaf(r, child, ctx);
  }
  return out;
}

function validObject(r: Rng, node: { t: 'object'; keys: Record<string, Node> }, ctx: GeneratorContext): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, child] of Object.entries(node.keys)) if (r.chance(0.6)) out[k] = validLeaf(r, child as Leaf, ctx);
  return out;
}

function validBody(r: Rng, ctx: GeneratorContext): { body: Record<string, unknown>; form: string } {
  const form = r.pick(['flat', 'nested', 'mixed', 'nested', 'mixed']);
  const body: Record<string, unknown> = {};
  if (form === 'flat' || form === 'mixed') {
    for (const k of FLAT_KEYS) if (r.chance(form === 'flat' ? 0.5 : 0.3)) body[k] = validLeaf(r, APP[k] as Leaf, ctx);
    if (form === 'flat' && Object.keys(body).length === 0) body.dry_run = r.chance(0.5);
  }
  if (form === 'nested' || form === 'mixed') {
    for (const s of Object.keys(SECTIONS)) {
      if (!r.chance(0.4)) continue;
      const v = validSection(r, s, ctx);
      // A flat key given inside app as well is a 400; a valid body never does that.
      if (s === 'app') for (const k of Object.keys(body)) delete (v as Record<string, unknown>)[k];
      body[s] = v;
    }
  }
  return { body, form };
}

/** The patch the server must apply for a valid body: flat keys merged into `app`. */
function normalise(body: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const flat: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) {
    if (FLAT_KEYS.includes(k)) flat[k] = v;
    else out[k] = v;
  }
  if (Object.keys(flat).length > 0) out.app = { ...((out.app as object | undefined) ?? {}), ...flat };
  return out;
}

// ---------------------------------------------------------------------------------------------
// Mutations

type Path = (string | number)[];

/** Every position in the body the schema knows, with its node; objects and arrays included. */
function positions(body: unknown): { path: Path; node: Node }[] {
  const out: { path: Path; node: Node }[] = [];
  const walk = (value: unknown, path: Path) => {
    if (path.length > 0) {
      const node = nodeAt(path);
      if (!node) return;
      out.push({ path, node });
    }
    if (Array.isArray(value)) value.forEach((v, i) => walk(v, [...path, i]));
    else if (value !== null && typeof value === 'object') for (const k of Object.keys(value)) walk((value as Record<string, unknown>)[k], [...path, k]);
  };
  walk(body, []);
  return out;
}

/** Object containers a key can be added to: the body itself, sections, tvmaze, drive entries. */
function objectContainers(body: unknown): Path[] {
  const out: Path[] = [[]];
  for (const { path, node } of positions(body)) {
    if (node.t !== 'object') continue;
    let v: unknown = body;
    for (const s of path) v = (v as Record<string | number, unknown>)[s];
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) out.push(path);
  }
  return out;
}

function getAt(body: unknown, path: Path): unknown {
  let v = body;
  for (const s of path) v = (v as Record<string | number, unknown>)[s];
  return v;
}

/** Sets (as an own data property, so "__proto__" stays a plain key) the value at a path. */
function setAt(body: Record<string, unknown>, path: Path, value: unknown): void {
  const parent = getAt(body, path.slice(0, -1)) as Record<string | number, unknown>;
  Object.defineProperty(parent, path[path.length - 1]!, { value, enumerable: true, writable: true, configurable: true });
}

function jsonType(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
}

const UNKNOWN_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '__defineGetter__',
  '',
  ' ',
  'DRY_RUN',
  'dry-run',
  'dryRun',
  'Dry_Run',
  'enabled',
  'name',
  'path',
  'app',
  'library',
  'key',
  'ключ',
  '😀',
  'a.b',
  '0',
  '-1',
  'null',
  'undefined',
  '\u0000',
  'x'.repeat(10_000),
  'extra',
  'typo_key',
];

/** Markers replaced by raw JSON text after stringifying (numbers JSON.stringify cannot write). */
const RAW: string[] = [];
function raw(text: string): string {
  RAW.push(text);
  return `@@RAW${RAW.length - 1}@@`;
}

function deepGarbage(r: Rng, depth: number): unknown {
  if (depth <= 0) return r.pick([1, 'x', true, null, -0.5, '']);
  if (r.chance(0.5)) return [deepGarbage(r, depth - 1), ...(r.chance(0.3) ? [r.int(0, 9)] : [])];
  return { [r.pick(['a', 'b', '__proto__', 'constructor', '0'])]: deepGarbage(r, depth - 1) };
}

/** A value of another JSON type than `v`, never one the position accepts. */
function otherType(r: Rng, v: unknown, node: Node): unknown {
  const all: unknown[] = ['x', '', 42, 1.5, -1, true, false, null, [], [1, 'a'], { a: 1 }, {}, '1', 'true', 0];
  const t = node.t === 'object' ? 'object' : node.t === 'array' ? 'array' : node.t === 'bool' ? 'boolean' : node.t === 'int' ? 'number' : 'string';
  const ok = all.filter((c) => jsonType(c) !== t && jsonType(c) !== jsonType(v));
  return r.pick(ok);
}

function badString(r: Rng, kind: string): string | null {
  switch (kind) {
    case 'abs':
      // Outside the allowed roots, or a system folder: refused since "Secure by default".
      return r.pick(['relative/dir', '', 'a\u0000b', '~/x', './x', '..', '/', '/etc', '/usr/lib/python3', '/proc/self', '/nonexistent/mo-faults']);
    case 'drive':
      return r.pick(['', 'a b', 'x'.repeat(65), 'ü', 'a/b', '../x']);
    case 'folder':
      return r.pick(['', '.', '..', 'a/b', 'a\\b', 'a\u0000', '/Movies']);
    case 'video-ext':
    case 'subtitle-ext':
      return r.pick(['mkv', '.MKV', '.m kv', '.', '', '..mkv', '.mk/v', '.pth', '.so', '.nfo', '.x264']);
    case 'rel':
      return r.pick(['', '/abs.css', '../x.css', 'a/../../x.css', 'a\u0000.css', '..', 'a\\..\\..\\x.css']);
    case 'movie-template':
    case 'episode-template':
      return r.pick(['', 'x'.repeat(513), '{title}', '../{title}{ext}', '/{title}{ext}', '{Title}{ext}', '{year}{ext}']);
    case 'url':
      return r.pick(['ftp://127.0.0.1/', 'javascript:alert(1)', 'not a url', '', 'file:///etc/passwd', '//127.0.0.1']);
    default:
      return null;
  }
}

interface Mutated {
  body: Record<string, unknown>;
  kinds: string[];
  expect: Expect;
  keys: string[];
}

function mutate(r: Rng, m: Mutated, ctx: GeneratorContext): void {
  const pos = positions(m.body);
  const leaves = pos.filter((p) => p.node.t !== 'object' && p.node.t !== 'array');
  const choice = r.pick([
    'wrong-type',
    'wrong-type',
    'unknown-key',
    'unknown-key',
    'unknown-key',
    'out-of-range',
    'huge-string',
    'bad-string',
    'array-vs-object',
    'null',
    'nested-garbage',
    'duplicate-flat-nested',
    'deep-nesting',
    'forbidden-section',
    'duplicate-drive',
  ]);
  const reject = (kind: string, key: string) => {
    m.kinds.push(kind);
    m.expect = 'reject';
    m.keys.push(key);
  };
  switch (choice) {
    case 'wrong-type': {
      const p = r.pick(pos);
      setAt(m.body, p.path, otherType(r, getAt(m.body, p.path), p.node));
      return reject(choice, keyName(p.path));
    }
    case 'unknown-key': {
      const c = r.pick(objectContainers(m.body));
      const node = c.length === 0 ? null : nodeAt(c);
      const known = c.length === 0 ? [...FLAT_KEYS, ...Object.keys(SECTIONS)] : node && node.t === 'object' ? Object.keys(node.keys) : [];
      let key = r.pick(UNKNOWN_KEYS);
      if (known.includes(key)) key = 'typo_key';
      setAt(m.body, [...c, key], r.pick([true, 1, 'x', {}, [], null]));
      // A top-level unknown key is named on its own; one inside a section with its section path.
      return reject(choice, c.length === 0 ? key : keyName([...c, key]));
    }
    case 'out-of-range': {
      const ints = leaves.filter((p) => p.node.t === 'int');
      if (ints.length === 0) {
        setAt(m.body, ['settle_seconds'], -1);
        return reject(choice, 'app.settle_seconds');
      }
      const p = r.pick(ints);
      const n = p.node as { t: 'int'; min: number; max: number };
      setAt(m.body, p.path, r.pick<unknown>([n.min - 1, n.max + 1, n.min + 0.5, 1e308, -1e308, MAX_SAFE + 2, raw('1e400'), raw('-1e400')]));
      return reject(choice, keyName(p.path));
    }
    case 'huge-string': {
      const strs = leaves.filter((p) => p.node.t === 'string' || p.node.t === 'enum');
      if (strs.length === 0) {
        setAt(m.body, ['log_level'], 'x'.repeat(100_000));
        return reject(choice, 'app.log_level');
      }
      const p = r.pick(strs);
      const len = r.pick([513, 5000, 200_000]);
      const leaf = p.node as Leaf;
      const prefix =
        leaf.t === 'string' && leaf.kind === 'abs'
          ? '/'
          : leaf.t === 'string' && leaf.kind.endsWith('-ext')
            ? '.'
            : leaf.t === 'string' && leaf.kind === 'url'
              ? `${ctx.localUrl}/`
              : '';
      setAt(m.body, p.path, prefix + 'a'.repeat(len));
      m.kinds.push(choice);
      // Bounded fields (enums, templates, drive names, media types) refuse it; unbounded ones may take it.
      const bounded =
        leaf.t === 'enum' || (leaf.t === 'string' && ['movie-template', 'episode-template', 'drive', 'video-ext', 'subtitle-ext'].includes(leaf.kind));
      if (bounded) {
        m.expect = 'reject';
        m.keys.push(keyName(p.path));
      } else if (m.expect === 'accept') m.expect = 'either';
      return;
    }
    case 'bad-string': {
      const strs = leaves.filter((p) => (p.node.t === 'string' && badString(r, p.node.kind) !== null) || p.node.t === 'enum');
      if (strs.length === 0) {
        setAt(m.body, ['log_level'], 'verbose');
        return reject(choice, 'app.log_level');
      }
      const p = r.pick(strs);
      const leaf = p.node as Leaf;
      setAt(
        m.body,
        p.path,
        leaf.t === 'enum' ? r.pick(['INFO', 'verbose', '', 'info ', '__proto__', 'constructor']) : badString(r, (leaf as { kind: string }).kind),
      );
      return reject(choice, keyName(p.path));
    }
    case 'array-vs-object': {
      const containers = pos.filter((p) => p.node.t === 'object' || p.node.t === 'array');
      if (containers.length === 0) {
        setAt(m.body, ['library'], [{ movie_folders: ['Movies'] }]);
        return reject(choice, 'library');
      }
      const p = r.pick(containers);
      const v = getAt(m.body, p.path);
      setAt(m.body, p.path, p.node.t === 'object' ? [v] : { ...(v as unknown[]), 0: 'x' });
      return reject(choice, keyName(p.path));
    }
    case 'null': {
      if (pos.length === 0) {
        setAt(m.body, ['app'], null);
        return reject(choice, 'app');
      }
      const p = r.pick(pos);
      setAt(m.body, p.path, null);
      return reject(choice, keyName(p.path));
    }
    case 'nested-garbage': {
      const p = pos.length > 0 ? r.pick(pos) : { path: ['metadata'] as Path, node: SECTIONS.metadata! };
      let g = deepGarbage(r, r.int(3, 40));
      // Garbage of the position's own shape that happens to be empty would be valid.
      if (jsonType(g) === 'object' && Object.keys(g as object).length === 0) g = { junk: g };
      if (jsonType(g) === 'array' && (g as unknown[]).length === 0) g = [[g]];
      setAt(m.body, p.path, g);
      return reject(choice, keyName(p.path));
    }
    case 'duplicate-flat-nested': {
      const k = r.pick(FLAT_KEYS);
      const v = validLeaf(r, APP[k] as Leaf, ctx);
      const app = getAt(m.body, ['app']);
      if (app === undefined || jsonType(app) !== 'object') setAt(m.body, ['app'], {});
      setAt(m.body, [k], v);
      setAt(m.body, ['app', k], v);
      return reject(choice, `app.${k}`);
    }
    case 'deep-nesting': {
      const depth = r.pick([1000, 20_000, 100_000]);
      const p = pos.length > 0 ? r.pick(pos) : { path: ['app'] as Path, node: SECTIONS.app! };
      const open = r.chance(0.5) ? '[' : '{"a":';
      const close = open === '[' ? ']' : '}';
      setAt(m.body, p.path, raw(`${open.repeat(depth)}1${close.repeat(depth)}`));
      return reject(choice, keyName(p.path));
    }
    case 'forbidden-section': {
      const which = r.pick(['paths.data', 'transcoder', 'api_key', 'app.api_key', 'app.allowed_roots', 'app.trusted_proxies']);
      if (which === 'paths.data') {
        const paths = getAt(m.body, ['paths']);
        if (paths === undefined || jsonType(paths) !== 'object') setAt(m.body, ['paths'], {});
        setAt(m.body, ['paths', 'data'], r.pick(ctx.folders.downloads));
        return reject(choice, 'paths.data');
      }
      if (which === 'transcoder') {
        setAt(m.body, ['transcoder'], { video_encoder: 'libx264' });
        return reject(choice, 'transcoder');
      }
      if (which === 'app.api_key' || which === 'app.allowed_roots' || which === 'app.trusted_proxies') {
        // Config-file-only keys of a runtime section.
        const app = getAt(m.body, ['app']);
        if (app === undefined || jsonType(app) !== 'object') setAt(m.body, ['app'], {});
        setAt(m.body, ['app', which.slice(4)], which === 'app.api_key' ? 'secret-value' : which === 'app.allowed_roots' ? ['/'] : ['0.0.0.0/1']);
        return reject(choice, which);
      }
      // api_key is an app key, but not one of the legacy flat keys.
      setAt(m.body, ['api_key'], 'secret-value');
      return reject(choice, 'api_key');
    }
    case 'duplicate-drive': {
      const [a, b] = ctx.folders.drives;
      setAt(
        m.body,
        ['drives'],
        [
          { name: 'twin', path: a },
          { name: 'twin', path: b },
        ],
      );
      return reject(choice, 'drives.1.name');
    }
  }
}

function stringify(body: unknown): string {
  let text = JSON.stringify(body);
  text = text.replace(/"@@RAW(\d+)@@"/g, (_m, i: string) => RAW[Number(i)]!);
  return text;
}

/** Mutations of the text itself: what a hand-typed or truncated body looks like. */
function textMutation(r: Rng, text: string): { text: string; kind: string; expect: Expect } {
  const at = r.int(1, Math.max(1, text.length - 1));
  switch (r.pick(['truncate', 'insert', 'trailing-comma', 'single-quotes', 'comment', 'literal', 'bom', 'duplicate-key', 'top-level', 'padding', 'control'])) {
    case 'truncate':
      return { text: text.slice(0, at), kind: 'bad-json:truncated', expect: 'reject' };
    case 'insert':
      return {
        text: text.slice(0, at) + r.pick(['x', '"', '{', ']', ',', ':', '\\', ' ', '\n', '\u2028', '\ud800']) + text.slice(at),
        kind: 'bad-json:insert',
        expect: 'either',
      };
    case 'trailing-comma':
      return { text: `${text.slice(0, -1)},}`, kind: 'bad-json:trailing-comma', expect: 'reject' };
    case 'single-quotes':
      return { text: text.replace(/"/g, "'"), kind: 'bad-json:single-quotes', expect: text.includes('"') ? 'reject' : 'either' };
    case 'comment':
      return { text: `/* settings */${text}`, kind: 'bad-json:comment', expect: 'reject' };
    case 'literal':
      return {
        text: `{"settle_seconds": ${r.pick(['NaN', 'Infinity', '-Infinity', 'undefined', '0x10', '01', '+1', '.5', '1.', 'True'])}}`,
        kind: 'bad-json:literal',
        expect: 'reject',
      };
    case 'bom':
      return { text: `\ufeff${text}`, kind: 'bad-json:bom', expect: 'either' };
    case 'duplicate-key':
      return {
        text: `{"settle_seconds": "x", "settle_seconds": 5${text.length > 2 ? `, ${text.slice(1)}` : '}'}`,
        kind: 'bad-json:duplicate-key',
        expect: 'either',
      };
    case 'top-level':
      return { text: r.pick(['[]', '[{}]', '"dry_run"', '42', 'true', 'false', 'null', '', '   ', `[${text}]`]), kind: 'bad-json:top-level', expect: 'reject' };
    case 'padding':
      return { text: `${' '.repeat(r.int(1, 500_000))}${text}\n\t `, kind: 'bad-json:padding', expect: 'either' };
    default:
      return { text: text.slice(0, at) + String.fromCharCode(r.int(0, 31)) + text.slice(at), kind: 'bad-json:control', expect: 'either' };
  }
}

/**
 * `count` cases: about 30 % valid bodies, 50 % one mutation, 12 % two or three, 8 % text-level
 * damage. Every reject names the keys a 400 must mention.
 */
export function generateSettingsCases(r: Rng, count: number, ctx: GeneratorContext): SettingsCase[] {
  const out: SettingsCase[] = [];
  for (let n = 0; n < count; n++) {
    RAW.length = 0;
    const { body, form } = validBody(r, ctx);
    const roll = r.next();
    if (roll < 0.3) {
      out.push({ n, kinds: [`valid:${form}`], text: stringify(body), expect: 'accept', keys: [], patch: normalise(body) });
      continue;
    }
    if (roll < 0.92) {
      // Every mutation needs a position to work on.
      if (Object.keys(body).length === 0) body.dry_run = r.chance(0.5);
      const m: Mutated = { body, kinds: [], expect: 'accept', keys: [] };
      const times = roll < 0.8 ? 1 : r.int(2, 3);
      for (let i = 0; i < times; i++) mutate(r, m, ctx);
      const text = stringify(m.body);
      out.push({
        n,
        kinds: m.kinds,
        text,
        expect: m.expect,
        keys: m.expect === 'reject' ? m.keys : [],
        ...(m.expect !== 'reject' ? { patch: normalise(JSON.parse(text) as Record<string, unknown>) } : {}),
      });
      continue;
    }
    const t = textMutation(r, stringify(body));
    out.push({ n, kinds: [t.kind], text: t.text, expect: t.expect, keys: [] });
  }
  return out;
}
