/**
 * Names for every JSON body the API sends or takes, so `components.schemas` holds each once and
 * generated clients get a type per name.
 */
import { z } from 'zod';
import {
  appSection,
  openSessionSchema,
  authApiKeyBody,
  authApiKeyResponse,
  authLoginBody,
  authLogoutResponse,
  authPasswordBody,
  authSessionEndResponse,
  authSessionResponse,
  authSessionsResponse,
  authSetupBody,
  authStatusResponse,
  dashboardResponse,
  downloadFileSchema,
  downloadsResponse,
  droppedStreamSchema,
  duplicatesResponse,
  errorBodySchema,
  FLAT_APP_KEYS,
  healthResponse,
  jobAcceptedResponse,
  jobRefSchema,
  jobViewResponse,
  librarySummarySchema,
  libraryResponse,
  libraryFilesResponse,
  libraryScanResponse,
  moveSchema,
  planSchema,
  probeResponse,
  providerStatusSchema,
  publicConfigResponse,
  readyResponse,
  releaseSchema,
  releasesResponse,
  runNextDryRunResponse,
  runNextNothingResponse,
  runNextStartedResponse,
  scanResponse,
  settingsPatchSchema,
  settingsResponse,
  skippedSchema,
  streamSchema,
  subtitlesResponse,
  trackActionSchema,
  tracksDryRunResponse,
  tracksResultResponse,
  transcodeCancelResponse,
  transcodeItemSchema,
  transcoderResponse,
  transcodeRetryBody,
  transcodeRetryResponse,
} from '@mo/shared';

/** The body of POST /api/settings: sections nested, or the legacy flat app keys, or both. */
export const settingsBody = settingsPatchSchema.extend(
  Object.fromEntries(FLAT_APP_KEYS.map((k) => [k, appSection.shape[k].optional()])) as {
    [K in (typeof FLAT_APP_KEYS)[number]]: z.ZodOptional<(typeof appSection.shape)[K]>;
  },
);

/** GET /api/openapi.json: described by its standard, not here; the fields a client starts from. */
export const openApiDocumentSchema = z.looseObject({
  openapi: z.literal('3.1.0'),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.unknown()),
  components: z.looseObject({ schemas: z.record(z.string(), z.unknown()) }),
});

export const tracksAnswer = z.union([tracksDryRunResponse, tracksResultResponse]);
export const runNextAnswer = z.union([runNextNothingResponse, runNextDryRunResponse]);

const NAMED: Record<string, z.ZodType> = {
  OpenApiDocument: openApiDocumentSchema,
  ErrorBody: errorBodySchema,
  Health: healthResponse,
  Ready: readyResponse,
  AuthStatus: authStatusResponse,
  AuthSession: authSessionResponse,
  OpenSession: openSessionSchema,
  OpenSessions: authSessionsResponse,
  SessionEnded: authSessionEndResponse,
  AuthLogout: authLogoutResponse,
  AuthApiKey: authApiKeyResponse,
  PublicConfig: publicConfigResponse,
  Settings: settingsResponse,
  JobRef: jobRefSchema,
  JobAccepted: jobAcceptedResponse,
  Job: jobViewResponse,
  Plan: planSchema,
  Move: moveSchema,
  Skipped: skippedSchema,
  ScanResult: scanResponse,
  LibrarySummary: librarySummarySchema,
  LibraryScanResult: libraryScanResponse,
  Library: libraryResponse,
  LibraryFiles: libraryFilesResponse,
  Dashboard: dashboardResponse,
  DownloadFile: downloadFileSchema,
  Downloads: downloadsResponse,
  Release: releaseSchema,
  ProviderStatus: providerStatusSchema,
  Releases: releasesResponse,
  Stream: streamSchema,
  Probe: probeResponse,
  TracksDryRun: tracksDryRunResponse,
  TracksResult: tracksResultResponse,
  TracksAnswer: tracksAnswer,
  Subtitles: subtitlesResponse,
  TranscodeItem: transcodeItemSchema,
  Transcoder: transcoderResponse,
  DroppedStream: droppedStreamSchema,
  RunNextNothing: runNextNothingResponse,
  RunNextDryRun: runNextDryRunResponse,
  RunNextAnswer: runNextAnswer,
  RunNextStarted: runNextStartedResponse,
  TranscodeRetryResult: transcodeRetryResponse,
  TranscodeCancel: transcodeCancelResponse,
  Duplicates: duplicatesResponse,
  SettingsPatch: settingsBody,
  TrackAction: trackActionSchema,
  TranscodeRetryRequest: transcodeRetryBody,
  AuthSetupRequest: authSetupBody,
  AuthLoginRequest: authLoginBody,
  AuthPasswordRequest: authPasswordBody,
  AuthApiKeyRequest: authApiKeyBody,
};

for (const [id, schema] of Object.entries(NAMED)) {
  // The same instances the routes declare: the generator refers to a schema by its registered id.
  if (!z.globalRegistry.has(schema)) z.globalRegistry.add(schema, { id });
}
