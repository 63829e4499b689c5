export { parseReleaseName, normalizeTitle, type ParsedMedia } from './release-name.ts';
