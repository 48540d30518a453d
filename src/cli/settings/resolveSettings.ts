// Where each setting comes from, highest first: the command line, the environment, the project
// file (spot-import.json), the defaults. Never the reverse: a flag always wins over a file that
// happens to be found (the Azure Static Web Apps CLI did it the other way, and its users complain).
import { dirname, resolve } from 'node:path';
import { API_VERSION_PATTERN, DEFAULT_API_VERSION } from '../../core/api/apiVersion';
import { DEFAULT_CONCURRENCY } from '../../core/import/concurrency';
import { CliError } from '../exit';
import { findConfigFile, readConfigFile, type ProjectConfig } from './configFile';

export type SettingSource = 'flag' | 'environment' | 'config' | 'default';

/** The value "sandbox" for the base URL starts the built-in sandbox in the process. */
export const SANDBOX = 'sandbox';

/** Options every command that talks to the service accepts (commander's camelCase names). */
export interface ConnectionFlags {
  baseUrl?: string;
  tokenUrl?: string;
  apiVersion?: string;
  clientId?: string;
  clientSecretStdin?: boolean;
  sandbox?: boolean;
  topic?: number;
  concurrency?: number;
  config?: string;
  topicsFolder?: string;
}

export interface Setting<T> {
  value: T;
  from: SettingSource;
}

export interface CliSettings {
  /** A URL, or SANDBOX. Undefined when nothing names the service. */
  baseUrl?: Setting<string>;
  tokenUrl?: Setting<string>;
  apiVersion: Setting<string>;
  clientId?: Setting<string>;
  /** Only from the environment: never from a flag or a file. */
  clientSecretFromEnv?: string;
  topic?: Setting<number>;
  concurrency: Setting<number>;
  media: { fileFieldName?: string; acceptedTypes?: string[] } & Record<string, unknown>;
  /** The topics folder: from --topics-folder (relative to the current folder) or "topicsFolder" (relative to the settings file). */
  topicsFolder?: { folder: string; relativeTo: string };
  /** The project file that was read, if any. */
  configFile?: string;
}

export async function resolveSettings(flags: ConnectionFlags, env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Promise<CliSettings> {
  const configFile = flags.config ? resolve(cwd, flags.config) : await findConfigFile(cwd);
  const file: ProjectConfig = configFile ? await readConfigFile(configFile) : {};
  const pick = <T>(flag: T | undefined, fromEnv: T | undefined, fromFile: T | undefined): Setting<T> | undefined =>
    flag !== undefined
      ? { value: flag, from: 'flag' }
      : fromEnv !== undefined
        ? { value: fromEnv, from: 'environment' }
        : fromFile !== undefined
          ? { value: fromFile, from: 'config' }
          : undefined;

  const apiVersion = pick(flags.apiVersion, envValue(env, 'SPOT_API_VERSION'), file.apiVersion) ?? { value: DEFAULT_API_VERSION, from: 'default' as const };
  if (!API_VERSION_PATTERN.test(apiVersion.value)) {
    throw new CliError(`The API version "${apiVersion.value}" (${describeSource(apiVersion.from, 'SPOT_API_VERSION', configFile)}) must look like v2.4.`);
  }
  const baseUrl: Setting<string> | undefined = flags.sandbox
    ? { value: SANDBOX, from: 'flag' }
    : pick(flags.baseUrl, envValue(env, 'SPOT_BASE_URL'), file.baseUrl);
  const tokenUrl = pick(flags.tokenUrl, envValue(env, 'SPOT_TOKEN_URL'), file.tokenUrl);
  // The client secret goes to the token URL. A file found in this folder or any above it (a cloned
  // repository's) must not send it elsewhere for an address the person gave: the token URL comes
  // the way the address comes, or with the file's own address given again. (The built-in sandbox has its own and takes none.)
  if (tokenUrl?.from === 'config' && baseUrl && baseUrl.from !== 'config' && baseUrl.value !== SANDBOX && baseUrl.value !== file.baseUrl) {
    throw new CliError(
      `The token URL comes ${describeSource('config', 'SPOT_TOKEN_URL', configFile)}, the service address ${describeSource(baseUrl.from, 'SPOT_BASE_URL', configFile)}: the client secret is not sent where a file says for an address given elsewhere. Give the token URL the same way (--token-url or SPOT_TOKEN_URL), or put "baseUrl" in the file too.`,
    );
  }
  return {
    baseUrl,
    tokenUrl,
    apiVersion,
    clientId: pick(flags.clientId, envValue(env, 'SPOT_CLIENT_ID'), file.clientId),
    clientSecretFromEnv: envValue(env, 'SPOT_CLIENT_SECRET'),
    topic: pick(flags.topic, undefined, file.topic),
    concurrency: pick(flags.concurrency, undefined, file.concurrency) ?? { value: DEFAULT_CONCURRENCY, from: 'default' },
    media: { ...file.media },
    topicsFolder: flags.topicsFolder
      ? { folder: flags.topicsFolder, relativeTo: cwd }
      : file.topicsFolder && configFile
        ? { folder: file.topicsFolder, relativeTo: dirname(configFile) }
        : undefined,
    configFile,
  };
}

/** Words for a message that says where a setting came from. */
export function describeSource(from: SettingSource, envName: string, configFile?: string): string {
  switch (from) {
    case 'flag':
      return 'from the command line';
    case 'environment':
      return `from ${envName}`;
    case 'config':
      return `from ${configFile ?? 'spot-import.json'}`;
    default:
      return 'the default';
  }
}

/** An environment variable, with an empty value treated as unset (CI templates often leave them empty). */
function envValue(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}
