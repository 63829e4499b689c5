import { scannerService, type ScannerService } from '@mo/core/scanner';
import type { AppDeps } from './env.ts';

/** The scanner service over the API's config, job client and library cache; the scan and import routes share one. */
export function apiScanner({ config, jobs, library }: AppDeps): ScannerService {
  return scannerService({
    config: () => config.current(),
    passes: () => config.data.passes(),
    history: () => config.data.history(),
    jobs,
    refreshLibrary: () => library.refresh(),
    updateSettings: (patch) => config.updateSettings(patch),
  });
}
