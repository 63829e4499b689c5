import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { settingsPatchSchema } from './schema.ts';
import { SETTING_LABELS, settingSchema, settingsSentence } from './settings-sentences.ts';

type Def = { type: string; innerType?: unknown; shape?: Record<string, unknown>; element?: unknown; checks?: unknown[] };
const defOf = (schema: unknown): Def => {
  let def = (schema as { _zod: { def: Def } })._zod.def;
  while (def.innerType) def = (def.innerType as { _zod: { def: Def } })._zod.def;
  return def;
};

/** Every key a settings patch has, list entries that are groups of keys as `#`. */
function patterns(schema: unknown, prefix = ''): string[] {
  const def = defOf(schema);
  if (def.type === 'object') {
    return Object.entries(def.shape!).flatMap(([k, s]) => {
      const path = prefix ? `${prefix}.${k}` : k;
      return [path, ...patterns(s, path)];
    });
  }
  if (def.type === 'array' && defOf(def.element).type === 'object') return [`${prefix}.#`, ...patterns(def.element, `${prefix}.#`)];
  return [];
}

/** A body with `value` at `pattern`; a `#` is the first entry of a list. */
function bodyWith(pattern: string, value: unknown): unknown {
  return pattern
    .split('.')
    .reverse()
    .reduce<unknown>((inner, key) => (key === '#' ? [inner] : { [key]: inner }), value);
}

/** Values of each kind of refusal the key's schema can make: wrong type, out of range, not a choice, not a list entry it takes. */
function refusedValues(pattern: string): unknown[] {
  const schema = settingSchema(pattern) as unknown as Record<string, unknown>;
  const def = defOf(schema);
  switch (def.type) {
    case 'boolean':
      return ['yes'];
    case 'number': {
      const { minValue, maxValue } = schema as { minValue: number | null; maxValue: number | null };
      return ['ten', 1.5, ...(minValue !== null ? [minValue - 1] : []), ...(maxValue !== null ? [maxValue + 1] : [])];
    }
    case 'string': {
      const { minLength, maxLength } = schema as { minLength: number | null; maxLength: number | null };
      return [5, ...(minLength ? [''] : []), ...(maxLength !== null ? ['x'.repeat(maxLength + 1)] : []), 'bad\0/..'];
    }
    case 'enum':
      return ['nope'];
    case 'array':
      return ['a list', [], [5], Array.from({ length: 100_001 }, () => 5)];
    case 'object':
      return ['a group', { not_a_key: 1 }];
    default:
      throw new Error(`${pattern}: no refusals written for a ${def.type}`);
  }
}

const JARGON = /Invalid input|Invalid option|expected|received|Too small|Too big|>=|<=|\(root\)|undefined|\bNaN\b/;

function issuesOf(body: unknown): { path: string; issue: z.core.$ZodIssue }[] {
  const parsed = settingsPatchSchema.safeParse(body);
  expect(parsed.success, JSON.stringify(body).slice(0, 200)).toBe(false);
  // An unknown key is named by itself, as the API's keyIssues names it.
  return parsed.error!.issues.flatMap((issue): { path: string; issue: z.core.$ZodIssue }[] =>
    issue.code === 'unrecognized_keys' ? issue.keys.map((k) => ({ path: [...issue.path, k].join('.'), issue })) : [{ path: issue.path.join('.'), issue }],
  );
}

describe('settingsSentence', () => {
  const all = patterns(settingsPatchSchema);

  it("names a key called after one of Object's own properties as the key itself, never throws over it", () => {
    for (const key of ['toString', 'valueOf', '__proto__', 'hasOwnProperty', 'constructor', '__defineGetter__']) {
      for (const { path, issue } of issuesOf({ [key]: 1, app: { [key]: [] } })) {
        expect(settingsSentence(path, issue)).toMatch(new RegExp(`^"(app\\.)?${key}"`));
      }
      expect(settingSchema(key)).toBeUndefined();
    }
  });

  it('has a label for every key of the settings patch', () => {
    expect(all.length).toBeGreaterThan(40);
    expect(all.filter((p) => !SETTING_LABELS[p])).toEqual([]);
    expect(Object.keys(SETTING_LABELS).filter((p) => !all.includes(p))).toEqual([]);
  });

  it.each(all)('turns every kind of refusal of %s into a sentence that names the field, without zod jargon', (pattern) => {
    let refusedAtKey = false;
    for (const value of refusedValues(pattern)) {
      const parsed = settingsPatchSchema.safeParse(bodyWith(pattern, value));
      if (parsed.success) continue;
      for (const { path, issue } of issuesOf(bodyWith(pattern, value))) {
        const text = settingsSentence(path, issue);
        expect(text, `${path} ← ${JSON.stringify(value).slice(0, 40)}: ${issue.message}`).not.toMatch(JARGON);
        expect(text).toMatch(/^[A-Z"].*\.$/s);
        if (path.replace(/\.\d+/g, '.#') === pattern) {
          refusedAtKey = true;
          expect(text.startsWith(SETTING_LABELS[pattern]!.label.replace(/#/g, '1'))).toBe(true);
        }
      }
    }
    expect(refusedAtKey, 'some value is refused at the key itself').toBe(true);
  });

  it('says what a number field takes, in its unit, for each way it is refused', () => {
    const say = (body: unknown) => issuesOf(body).map(({ path, issue }) => settingsSentence(path, issue));
    expect(say({ app: { scan_interval_seconds: -1 } })).toEqual(['Scan interval must be a whole number of seconds, 0 or more.']);
    expect(say({ app: { settle_seconds: 'ten' } })).toEqual(['Settle time must be a whole number of seconds, from 0 to 31,536,000.']);
    expect(say({ app: { library_scan_timeout_seconds: 604_801 } })).toEqual(['Library scan: time limit must be a whole number of seconds, 604,800 or less.']);
    expect(say({ library: { sample_max_bytes: 1.5 } })).toEqual(['Samples: largest size must be a whole number of bytes, 0 or more.']);
  });

  it('names entries of lists, choices, missing keys, unknown keys and a rule’s own words', () => {
    const say = (body: unknown) => issuesOf(body).map(({ path, issue }) => settingsSentence(path, issue));
    expect(say({ drives: [{ name: 'a b' }] })).toEqual(['Drive 1 name: letters, digits, ".", "_" or "-" only.', 'Drive 1 path is missing.']);
    expect(say({ library: { transfer: 'teleport', video_extensions: ['.mkv', 'avi'] } })).toEqual([
      'Video extensions, entry 2, must be a lower-case extension starting with a dot, like ".mkv".',
      'Import by must be one of "move", "hardlink" or "copy".',
    ]);
    expect(say({ app: { colour: 'red' } })).toEqual(['"app.colour" is not a setting.']);
    expect(settingsSentence('paths.downloads', { code: 'custom', message: 'must lie inside an allowed root' })).toBe(
      'Downloads folder must lie inside an allowed root.',
    );
    expect(settingsSentence('theme.css_file', { code: 'custom', message: 'the file is gone' })).toBe('Stylesheet file: the file is gone.');
  });
});
