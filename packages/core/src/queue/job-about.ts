import { nothingAbout, type JobAbout } from '@mo/shared';

type Data = Record<string, unknown>;

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const int = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) ? v : null);
const ints = (v: unknown): number[] => (Array.isArray(v) ? v.filter((n): n is number => int(n) !== null) : []);
const obj = (v: unknown): Data | null => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Data) : null);
const kindOf = (v: unknown): JobAbout['kind'] => (v === 'movie' || v === 'episode' ? v : null);

function track(d: Data): JobAbout['track'] {
  const index = int(d.stream);
  const action = str(d.action);
  if (index === null || action === null) return null;
  const before = Array.isArray(d.before) ? d.before.map(obj).find((s) => s !== null && s.index === index) : undefined;
  return { action, index, type: str(before?.type), language: str(before?.language) };
}

/**
 * What a job is about, from its payload as Redis holds it: read field by field, so that a payload of
 * an older or unknown shape gives the fields it has and nulls for the rest, never an error.
 */
export function jobAbout(name: string, data: unknown): JobAbout {
  const d = obj(data) ?? {};
  switch (name) {
    case 'scan-pass':
    case 'library-scan':
    case 'recycle-purge':
      return { ...nothingAbout(), trigger: str(d.trigger) };
    case 'transcode-run': {
      const item = obj(d.item) ?? {};
      return { ...nothingAbout(), path: str(item.path), kind: kindOf(item.kind), title: str(item.title) };
    }
    case 'media-tracks':
      return { ...nothingAbout(), path: str(d.path), track: track(d) };
    case 'manual-import': {
      const as = obj(d.as) ?? {};
      return {
        ...nothingAbout(),
        path: str(d.path),
        kind: kindOf(as.kind),
        title: str(as.title),
        year: int(as.year),
        season: int(as.season),
        episodes: ints(as.episodes),
        air_date: str(as.air_date),
      };
    }
    case 'library-organize': {
      const paths = Array.isArray(d.paths) ? d.paths : [];
      return { ...nothingAbout(), path: paths.length === 1 ? str(paths[0]) : null };
    }
    case 'notify': {
      const imports = Array.isArray(d.imports) ? d.imports : [];
      return { ...nothingAbout(), path: str(obj(imports[0])?.destination), imports: imports.length, undone: d.undone !== undefined };
    }
    default:
      return nothingAbout();
  }
}
