export { parseRelease, parseReleaseName, type ParsedMedia, type ParseResult } from './release-name.ts';
