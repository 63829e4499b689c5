import type { z } from 'zod';
import { settingsPatchSchema } from './schema.ts';

/**
 * Each settings key as the Settings page names it, and what a number in it counts. `#` stands for
 * the entry's number in its list, counted from 1 (`drives.0.path` is "Drive 1 path"). A key not here
 * is named by its path; settings-sentences.test.ts checks that every key of the patch schema is.
 */
export const SETTING_LABELS: Readonly<Record<string, { label: string; unit?: string }>> = {
  app: { label: 'The app section' },
  'app.dry_run': { label: 'Dry run' },
  'app.scan_interval_seconds': { label: 'Scan interval', unit: 'seconds' },
  'app.settle_seconds': { label: 'Settle time', unit: 'seconds' },
  'app.watch': { label: 'Watch the downloads folder' },
  'app.library_scan_max_files': { label: 'Library scan: most files', unit: 'files' },
  'app.library_scan_timeout_seconds': { label: 'Library scan: time limit', unit: 'seconds' },
  'app.log_level': { label: 'Log level' },
  'app.api_key': { label: 'API key' },
  'app.auth': { label: 'Sign-in mode (app.auth)' },
  'app.allowed_hosts': { label: 'Allowed host names' },
  'app.allowed_roots': { label: 'Allowed roots' },
  'app.trusted_proxies': { label: 'Trusted proxies' },
  'app.frame_ancestors': { label: 'Sites that may show these pages in a frame' },
  'app.probe_concurrency': { label: 'Probes at once', unit: 'probes' },
  paths: { label: 'The folders section' },
  'paths.downloads': { label: 'Downloads folder' },
  'paths.config': { label: 'Config folder' },
  'paths.data': { label: 'Data folder' },
  drives: { label: 'Drives' },
  'drives.#': { label: 'Drive #' },
  'drives.#.name': { label: 'Drive # name' },
  'drives.#.path': { label: 'Drive # path' },
  library: { label: 'The library section' },
  'library.movie_folders': { label: 'Movie folders' },
  'library.tv_folders': { label: 'TV folders' },
  'library.video_extensions': { label: 'Video extensions' },
  'library.subtitle_extensions': { label: 'Subtitle extensions' },
  'library.movie_template': { label: 'Movie name template' },
  'library.episode_template': { label: 'Episode name template' },
  'library.sample_max_bytes': { label: 'Samples: largest size', unit: 'bytes' },
  'library.transfer': { label: 'Import by' },
  'library.upgrades': { label: 'Upgrades' },
  'library.aliases': { label: 'Series aliases' },
  'library.recycle_bin': { label: 'Recycle bin' },
  'library.recycle_days': { label: 'Recycle bin: days kept', unit: 'days' },
  'library.aliases.#': { label: 'Alias #' },
  'library.aliases.#.name': { label: 'Alias # name' },
  'library.aliases.#.series': { label: 'Alias # series' },
  metadata: { label: 'The metadata section' },
  'metadata.read_nfo': { label: 'Read .nfo files' },
  'metadata.include_specials': { label: 'Report specials' },
  'metadata.identify': { label: 'Look up new series on' },
  theme: { label: 'The theme section' },
  'theme.css_file': { label: 'Stylesheet file' },
  release_providers: { label: 'The release providers section' },
  'release_providers.tvmaze': { label: 'TVmaze' },
  'release_providers.tvmaze.enabled': { label: 'Ask TVmaze for upcoming episodes' },
  'release_providers.tvmaze.url': { label: 'TVmaze URL' },
  'release_providers.tvmaze.allow_private': { label: 'TVmaze at a private address' },
  notifications: { label: 'The notifications section' },
  'notifications.targets': { label: 'Notification targets' },
  'notifications.targets.#': { label: 'Notification target #' },
  'notifications.targets.#.name': { label: 'Notification target # name' },
  'notifications.targets.#.kind': { label: 'Notification target # kind' },
  'notifications.targets.#.url': { label: 'Notification target # URL' },
  'notifications.targets.#.api_key': { label: 'Notification target # API key' },
  'notifications.targets.#.token': { label: 'Notification target # token' },
  'notifications.targets.#.secret': { label: 'Notification target # secret' },
  'notifications.targets.#.enabled': { label: 'Notification target # on/off' },
};

/** What a refusal says: a zod issue, or a rule's own words (`code: 'custom'`) from a check made after the schema. */
export type SettingsIssue = z.core.$ZodIssue | { code: 'custom'; message: string };

type Def = { type: string; innerType?: Def; shape?: Record<string, { _zod: { def: Def } }>; element?: { _zod: { def: Def } } };
type NumberBag = { minValue?: number | null; maxValue?: number | null; isInt?: boolean };

/** The schema of one key of a settings patch (list entries as `#`), or undefined for a key it does not have. */
export function settingSchema(pattern: string): z.ZodType | undefined {
  let schema: { _zod: { def: Def } } | undefined = settingsPatchSchema as unknown as { _zod: { def: Def } };
  for (const key of pattern.split('.')) {
    schema = schema && unwrap(schema);
    if (!schema) return undefined;
    const def: Def = schema._zod.def;
    schema = key === '#' ? def.element : def.shape && Object.hasOwn(def.shape, key) ? def.shape[key] : undefined;
  }
  return schema && (unwrap(schema) as unknown as z.ZodType);
}

function unwrap(schema: { _zod: { def: Def } }): { _zod: { def: Def } } {
  let s = schema;
  while (s._zod.def.innerType) s = s._zod.def.innerType as unknown as { _zod: { def: Def } };
  return s;
}

const count = (n: number | bigint) => Number(n).toLocaleString('en-US');

/** A key's label; a key is anyone's text, so `toString` or `__proto__` finds none rather than Object's own. */
const labelOf = (pattern: string) => (Object.hasOwn(SETTING_LABELS, pattern) ? SETTING_LABELS[pattern] : undefined);

function subject(path: string): { label: string; unit?: string; pattern: string } {
  const segments = path.split('.');
  const numbers = segments.filter((s) => /^\d+$/.test(s)).map((s) => String(Number(s) + 1));
  const pattern = segments.map((s) => (/^\d+$/.test(s) ? '#' : s)).join('.');
  const known = labelOf(pattern);
  if (known) {
    let i = 0;
    return { ...known, label: known.label.replace(/#/g, () => numbers[i++] ?? '#'), pattern };
  }
  // An entry of a list typed into one field (an extension, an origin): the list's name and its place.
  const parent = segments.slice(0, -1).join('.');
  const last = segments.at(-1)!;
  if (/^\d+$/.test(last) && parent !== '') {
    const list = subject(parent);
    if (labelOf(list.pattern)) return { label: `${list.label}, entry ${Number(last) + 1},`, pattern };
  }
  return { label: `"${path}"`, pattern };
}

function numberWords(pattern: string, unit: string | undefined): { what: string; min: number | null; max: number | null } {
  const bag = (settingSchema(pattern) ?? {}) as NumberBag;
  const max = bag.maxValue !== undefined && bag.maxValue !== null && bag.maxValue < Number.MAX_SAFE_INTEGER ? bag.maxValue : null;
  const min = bag.minValue !== undefined && bag.minValue !== null && bag.minValue > Number.MIN_SAFE_INTEGER ? bag.minValue : null;
  const kind = bag.isInt === false ? 'a number' : 'a whole number';
  return { what: unit ? `${kind} of ${unit}` : kind, min, max };
}

function range(min: number | null, max: number | null): string {
  if (min !== null && max !== null) return `, from ${count(min)} to ${count(max)}`;
  if (min !== null) return `, ${count(min)} or more`;
  if (max !== null) return `, ${count(max)} or less`;
  return '';
}

const entries = (n: number | bigint) => (Number(n) === 1 ? 'one entry' : `${count(n)} entries`);

function quoteList(values: readonly unknown[]): string {
  const quoted = values.map((v) => `"${String(v)}"`);
  return quoted.length <= 1 ? (quoted[0] ?? 'nothing') : `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`;
}

/** The rest of the sentence after the field's name; null where the issue's own words must do. */
function predicate(issue: SettingsIssue, pattern: string, unit: string | undefined): string | null {
  switch (issue.code) {
    case 'unrecognized_keys':
      return 'is not a setting';
    case 'invalid_type': {
      // zod names what it received only in its message: "received undefined" is a key left out.
      if (/received undefined$/.test(issue.message)) return 'is missing';
      if (issue.expected === 'boolean') return 'must be true or false';
      if (issue.expected === 'number' || issue.expected === 'int') {
        const n = numberWords(pattern, unit);
        return `must be ${n.what}${range(n.min, n.max)}`;
      }
      if (issue.expected === 'string') return 'must be text';
      if (issue.expected === 'array') return 'must be a list';
      if (issue.expected === 'object') return 'must be a group of settings';
      return 'has a value of the wrong kind';
    }
    case 'too_small':
      if (issue.origin === 'string') return Number(issue.minimum) <= 1 ? 'must not be empty' : `must be at least ${count(issue.minimum)} characters long`;
      if (issue.origin === 'array' || issue.origin === 'set') return `must list at least ${entries(issue.minimum)}`;
      return `must be ${numberWords(pattern, unit).what}, ${count(issue.minimum)} or more`;
    case 'too_big':
      if (issue.origin === 'string') return `must be at most ${count(issue.maximum)} characters long`;
      if (issue.origin === 'array' || issue.origin === 'set') return `must list at most ${entries(issue.maximum)}`;
      return `must be ${numberWords(pattern, unit).what}, ${count(issue.maximum)} or less`;
    case 'invalid_value':
      return issue.values.length === 1 ? `must be ${quoteList(issue.values)}` : `must be one of ${quoteList(issue.values)}`;
    case 'invalid_format':
      if (issue.format === 'url') return 'must be a web address that starts with http:// or https:// (like https://example.com)';
      // A pattern with its own message says what it wants; zod's default names the pattern itself.
      return issue.message.startsWith('Invalid') ? 'is not written the way this setting takes' : null;
    case 'custom':
      return null;
    default:
      return 'is not a value this setting takes';
  }
}

const sentence = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);

/**
 * A refused settings key in words a person reads, naming the field as the Settings page labels it:
 * "Scan interval must be a whole number of seconds, 0 or more." Never zod's own text ("Too small:
 * expected number to be >=0"); a rule's own words ("must be an absolute path") follow the name.
 */
export function settingsSentence(path: string, issue: SettingsIssue): string {
  const { label, unit, pattern } = subject(path);
  const said = predicate(issue, pattern, unit);
  if (said !== null) return sentence(`${label} ${said}`);
  const own = issue.message.trim();
  return sentence(/^(must|may|is|has|needs|lies|cannot|can) /.test(own) ? `${label} ${own}` : `${label}: ${own}`);
}
