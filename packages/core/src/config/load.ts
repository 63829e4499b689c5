import { readFile } from 'node:fs/promises';
import { parse as parseToml, TomlError } from 'smol-toml';
import { configSchema, DEFAULT_CONFIG, settingsPatchSchema, type Config, type SettingsPatch } from '@mo/shared';
import { deepMerge } from './merge.ts';
import { keyIssues } from '../errors.ts';
import { checkTemplate, TemplateError } from '../scanner/template.ts';

export const DEFAULT_CONFIG_FILE = '/config/config.toml';

/** Stops start-up: the message names the file and the key, as a user fixing it needs. */
export class ConfigError extends Error {
  constructor(
    readonly file: string,
    readonly key: string | null,
    detail: string,
  ) {
    super(`invalid config ${file}${key ? ` at ${key}` : ''}: ${detail}`);
    this.name = 'ConfigError';
  }
}

/** The TOML file as a plain object; a missing file is `{}` so that the defaults apply. */
export async function readConfigFile(file: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new ConfigError(file, null, (err as Error).message);
  }
  try {
    return parseToml(text) as Record<string, unknown>;
  } catch (err) {
    const detail = err instanceof TomlError ? `line ${err.line}, column ${err.column}: ${err.message.split('\n')[0]}` : String(err);
    throw new ConfigError(file, null, detail);
  }
}

export function validateFileConfig(file: string, raw: Record<string, unknown>): Config {
  const result = configSchema.safeParse(deepMerge(DEFAULT_CONFIG, raw));
  if (!result.success) {
    const issue = keyIssues(result.error)[0]!;
    throw new ConfigError(file, issue.path, issue.message);
  }
  // A template every scanner pass would refuse stops the start instead, as any other bad key does.
  try {
    checkTemplate(result.data.library.movie_template, 'movie', 'library.movie_template');
    checkTemplate(result.data.library.episode_template, 'episode', 'library.episode_template');
  } catch (err) {
    if (err instanceof TemplateError) throw new ConfigError(file, err.key, err.reason);
    throw err;
  }
  return result.data;
}

/** Defaults, then TOML, then saved settings: the order CONTRACT.md gives. */
export function effectiveConfig(fileConfig: Config, saved: SettingsPatch): Config {
  return configSchema.parse(deepMerge(fileConfig, settingsPatchSchema.parse(saved)));
}

export async function loadFileConfig(file: string): Promise<Config> {
  return validateFileConfig(file, await readConfigFile(file));
}
