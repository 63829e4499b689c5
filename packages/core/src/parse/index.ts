export { parseRelease, parseReleaseName, normalizeTitle, type ParsedMedia, type ParseResult } from './release-name.ts';
