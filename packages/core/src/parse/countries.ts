// The one list of country codes that tell remade series apart, read by the release-name parser and
// by the library's title keys alike: a code one of them split off and the other kept in the title
// would give one show two keys.

/**
 * The codes Sonarr and TVDB put after remade series (The Office (US), Shameless (UK)). A wider set
 * would take real title words for countries ("… DE").
 */
export const SERIES_COUNTRIES: ReadonlySet<string> = new Set(['US', 'UK', 'AU', 'NZ', 'CA', 'IE']);

/** The code a library title uses for an ISO 3166 code (providers give ISO): UK where ISO says GB. */
export function seriesCountryOfIso(code: string): string {
  const upper = code.toUpperCase();
  return upper === 'GB' ? 'UK' : upper;
}
