// The optional project file, spot-import.json, found by walking up from the current folder the way
// cosmiconfig finds its files. It holds what a repository may share (addresses, API version, topic,
// concurrency, media settings) and never a secret: a secret found there is refused, with a message
// saying where it belongs, so a committed file cannot leak one.
import { promises as fs } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import * as z from '../../core/api/zod';
import { API_VERSION_PATTERN } from '../../core/api/apiVersion';
import { MAX_CONCURRENCY, MIN_CONCURRENCY } from '../../core/import/concurrency';
import { CliError } from '../exit';
import { offsetToPosition } from '../output/location';

const CONFIG_FILE_NAME = 'spot-import.json';

const concurrency = z.number().check(z.int(), z.gte(MIN_CONCURRENCY), z.lte(MAX_CONCURRENCY));

const configSchema = z.strictObject({
  $schema: z.optional(z.string()),
  baseUrl: z.optional(z.string().check(z.minLength(1))),
  tokenUrl: z.optional(z.string().check(z.minLength(1))),
  apiVersion: z.optional(z.string().check(z.regex(API_VERSION_PATTERN, 'must look like v2.4'))),
  clientId: z.optional(z.string().check(z.minLength(1))),
  topic: z.optional(z.number().check(z.int(), z.gt(0))),
  concurrency: z.optional(concurrency),
  /** The folder of the project's *.topic.json files, relative to this file (default: the nearest spot-topics/). */
  topicsFolder: z.optional(z.string().check(z.minLength(1))),
  // Media settings: the upload field name, and the types a gallery accepts (the workflow's check).
  media: z.optional(
    z.catchall(
      z.object({
        fileFieldName: z.optional(z.string().check(z.minLength(1))),
        acceptedTypes: z.optional(
          z.array(z.string().check(z.regex(/^[\w.+-]+\/(\*|[\w.+-]+)$/, 'must hold MIME types such as image/jpeg or image/*'))).check(z.minLength(1)),
        ),
      }),
      z.unknown(),
    ),
  ),
});

export type ProjectConfig = z.infer<typeof configSchema>;

const CONFIG_KEYS = Object.keys(configSchema.shape).filter((key) => key !== '$schema');

/** Member names that hold secrets, wherever they appear in the file ("tokenUrl" is fine, "token" is not). */
const SECRET_KEY = /secret|password|passwd|credential|private[-_]?key|api[-_]?key|^(access[-_]?)?token$|[-_]token$|accesstoken/i;

/** The nearest spot-import.json at or above `from`, or undefined. */
export async function findConfigFile(from: string): Promise<string | undefined> {
  for (let folder = resolve(from); ; folder = dirname(folder)) {
    const candidate = join(folder, CONFIG_FILE_NAME);
    try {
      if ((await fs.stat(candidate)).isFile()) return candidate;
    } catch {
      // not here: keep walking up
    }
    if (dirname(folder) === folder) return undefined;
  }
}

export async function readConfigFile(path: string): Promise<ProjectConfig> {
  let text: string;
  try {
    text = await fs.readFile(path, 'utf8');
  } catch (error) {
    throw new CliError(`Cannot read the settings file ${path}: ${(error as Error).message}`);
  }
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  if (errors.length > 0) {
    const { line, column } = offsetToPosition(text, errors[0].offset);
    throw new CliError(`${path}:${line}:${column}: not valid JSON (${printParseErrorCode(errors[0].error)}).`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new CliError(`${path}: the settings file must hold a JSON object.`);
  }
  const secret = findSecret(value);
  if (secret) {
    throw new CliError(
      `${path}: "${secret}" looks like a secret, and secrets do not belong in a file that is committed with the project. ` +
        'Remove it; set SPOT_CLIENT_SECRET in the environment (in CI: from its secret store) or pipe the secret to --client-secret-stdin.',
    );
  }
  const unknown = Object.keys(value).filter((key) => !(key in configSchema.shape));
  if (unknown.length > 0) {
    throw new CliError(`${path}: unknown setting "${unknown[0]}". Known settings: ${CONFIG_KEYS.join(', ')}.`);
  }
  const result = configSchema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new CliError(`${path}: "${issue.path.join('.')}" ${issue.message.replace(/^Invalid input: /, '')}.`);
  }
  return result.data;
}

/** The dotted path of the first member whose name says it holds a secret. */
function findSecret(value: unknown, path: string[] = []): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [key, member] of Object.entries(value)) {
    if (SECRET_KEY.test(key)) return [...path, key].join('.');
    const nested = findSecret(member, [...path, key]);
    if (nested) return nested;
  }
  return undefined;
}
