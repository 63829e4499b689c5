/**
 * Names for every JSON body the API sends or takes, so `components.schemas` holds each once and
 * generated clients get a type per name.
 */
import { z } from 'zod';
import { FILE_ONLY_KEYS } from '@mo/core';
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
  historyItemSchema,
  historyResponse,
  importedRefSchema,
  undoResponse,
  downloadsResponse,
  droppedStreamSchema,
  duplicatesResponse,
  errorBodySchema,
  FLAT_APP_KEYS,
  healthResponse,
  jobAcceptedResponse,
  jobListItemSchema,
  jobListResponse,
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
  scanPassesResponse,
  scanPassSchema,
  scanResponse,
  settingsPatchSchema,
  settingsResponse,
  skippedSchema,
  streamSchema,
  subtitlesResponse,
  trackActionSchema,
  tracksDryRunResponse,
  tracksResultResponse,
  discardOriginalBody,
  discardOriginalResponse,
  mediaSnapshotSchema,
  runAllDryRunResponse,
  runAllStartedResponse,
  transcodeCancelAllResponse,
  transcodeCancelResponse,
  transcodeItemSchema,
  transcodeListingSchema,
  transcodePausedResponse,
  transcodePriorityBody,
  transcodePriorityResponse,
  transcodeProgressSchema,
  transcoderResponse,
  transcodeRetryBody,
  transcodeRetryResponse,
  workerSchema,
  workersResponse,
  candidateSchema,
  manualAsSchema,
  manualImportBody,
  manualImportPackPreviewResponse,
  manualImportPreviewResponse,
  manualImportAnswer,
  manualImportResponse,
  aliasRemoveBody,
  aliasesResponse,
  pendingImportSchema,
  pendingImportsResponse,
} from '@mo/shared';

/** `schema` without the key at `path` (through optional objects): a strict object stays strict. */
function without(schema: z.ZodType, path: readonly string[]): z.ZodType {
  if (schema instanceof z.ZodOptional) return without(schema.unwrap() as z.ZodType, path).optional();
  const [key, ...rest] = path;
  if (!(schema instanceof z.ZodObject) || key === undefined || !(key in schema.shape)) throw new Error(`settings: no key ${path.join('.')} to leave out`);
  if (rest.length === 0) return schema.omit({ [key]: true } as never);
  return schema.extend({ [key]: without(schema.shape[key] as z.ZodType, rest) });
}

// Keys only the config file sets are always refused at run time: a client the document offers them
// to would send them (state.json is read with the full settingsPatchSchema, which keeps them).
const runtimePatch = FILE_ONLY_KEYS.reduce<z.ZodType>((schema, path) => without(schema, path), settingsPatchSchema) as z.ZodObject;

/** The body of POST /api/settings: sections nested, or the legacy flat app keys, or both. */
export const settingsBody = runtimePatch.extend(
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
export const runAllAnswer = z.union([runAllDryRunResponse, runAllStartedResponse]);

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
  JobListItem: jobListItemSchema,
  JobList: jobListResponse,
  ScanPass: scanPassSchema,
  ScanPasses: scanPassesResponse,
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
  ImportedRef: importedRefSchema,
  HistoryItem: historyItemSchema,
  History: historyResponse,
  UndoResult: undoResponse,
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
  TranscodeEntry: transcodeListingSchema,
  TranscodeProgress: transcodeProgressSchema,
  MediaSnapshot: mediaSnapshotSchema,
  Transcoder: transcoderResponse,
  RunAllDryRun: runAllDryRunResponse,
  RunAllStarted: runAllStartedResponse,
  RunAllAnswer: runAllAnswer,
  TranscodePriorityResult: transcodePriorityResponse,
  TranscoderPaused: transcodePausedResponse,
  DiscardOriginalResult: discardOriginalResponse,
  DroppedStream: droppedStreamSchema,
  RunNextNothing: runNextNothingResponse,
  RunNextDryRun: runNextDryRunResponse,
  RunNextAnswer: runNextAnswer,
  RunNextStarted: runNextStartedResponse,
  TranscodeRetryResult: transcodeRetryResponse,
  TranscodeCancel: transcodeCancelResponse,
  TranscodeCancelAll: transcodeCancelAllResponse,
  Duplicates: duplicatesResponse,
  Worker: workerSchema,
  Workers: workersResponse,
  SettingsPatch: settingsBody,
  TrackAction: trackActionSchema,
  TranscodeRetryRequest: transcodeRetryBody,
  TranscodePriorityRequest: transcodePriorityBody,
  DiscardOriginalRequest: discardOriginalBody,
  AuthSetupRequest: authSetupBody,
  AuthLoginRequest: authLoginBody,
  AuthPasswordRequest: authPasswordBody,
  AuthApiKeyRequest: authApiKeyBody,
  Candidate: candidateSchema,
  PendingImport: pendingImportSchema,
  PendingImports: pendingImportsResponse,
  ManualImportAs: manualAsSchema,
  ManualImportRequest: manualImportBody,
  ManualImportPreview: manualImportPreviewResponse,
  ManualImportPackPreview: manualImportPackPreviewResponse,
  ManualImportResult: manualImportResponse,
  ManualImportAnswer: manualImportAnswer,
  AliasRemoveRequest: aliasRemoveBody,
  Aliases: aliasesResponse,
};

for (const [id, schema] of Object.entries(NAMED)) {
  // The same instances the routes declare: the generator refers to a schema by its registered id.
  if (!z.globalRegistry.has(schema)) z.globalRegistry.add(schema, { id });
}
