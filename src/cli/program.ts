// The command line itself, declared with commander: commands, flags, per-command --help, and the
// errors for unknown flags or bad values (which main.ts turns into exit code 2).
import { Command, InvalidArgumentError, Option } from 'commander';
import { DEFAULT_API_VERSION } from '../core/api/apiVersion';
import { DEFAULT_CONCURRENCY, MAX_CONCURRENCY, MIN_CONCURRENCY } from '../core/import/concurrency';
import type { CliContext } from './context';
import { runConvert } from './commands/convert';
import { runGallery } from './commands/gallery';
import { runMapping } from './commands/mapping';
import { runImport } from './commands/import';
import { runSandbox, sandboxUsage } from './commands/sandbox';
import { runToken } from './commands/token';
import { runUpload } from './commands/upload';
import { runValidate } from './commands/validate';
import { OUTPUT_FORMATS } from './output/reporter';

const MORE_HELP = `
Settings, highest first: flags, then environment variables (SPOT_BASE_URL, SPOT_TOKEN_URL,
SPOT_API_VERSION, SPOT_CLIENT_ID, SPOT_CLIENT_SECRET; HTTPS_PROXY, NO_PROXY; NODE_EXTRA_CA_CERTS),
then the nearest spot-import.json above the current folder (baseUrl, tokenUrl, apiVersion,
clientId, topic, topicsFolder, concurrency, media), then defaults. The client secret comes only from
SPOT_CLIENT_SECRET or --client-secret-stdin, never from a file. SPOT_BASE_URL=sandbox (or
--sandbox) runs everything against the built-in sandbox, no account needed; it keeps its data in
SPOT_SANDBOX_DATA (default: a folder in the system's temporary directory).

Results go to stdout; progress goes to stderr when it is a terminal. NO_COLOR turns colour off.

Exit codes: 0 all good; 1 some documents invalid or some imports/uploads failed (the others
were done); 2 usage, configuration or credentials problem (nothing attempted, or the run
stopped); 130 interrupted (Ctrl-C).`;

const TOPICS_FOLDER = '--topics-folder <folder>';
const TOPICS_FOLDER_HELP = 'the folder of the *.topic.json definitions [default: "topicsFolder" of spot-import.json, else the nearest spot-topics/]';

const MAPPING = '--mapping <file>';
const MAPPING_HELP = 'the mapping of the table named [default: <table>.mapping.json beside it]';
const PHOTO_LOGIN = '--photo-login <variable@host>';
const PHOTO_LOGIN_HELP =
  "let the table's mapping send this environment variable as the login header to this photo host (once per variable; a mapping may come from anyone)";

/** A repeatable option's values, in the order given. */
const repeated = (value: string, previous: string[]) => [...previous, value];

const FORMAT_HELP = 'text (file:line:col: message), json (one object per line, see docs/cli-json.md), sarif (SARIF 2.1.0), github (workflow commands), junit';

function integer(name: string, min: number, max: number) {
  return (value: string): number => {
    const number = /^\d+$/.test(value.trim()) ? Number(value) : NaN;
    if (!Number.isSafeInteger(number) || number < min || number > max) {
      throw new InvalidArgumentError(
        `${name} must be a whole number${max === Number.MAX_SAFE_INTEGER ? ` of at least ${min}` : ` from ${min} to ${max}`}, not "${value}".`,
      );
    }
    return number;
  };
}

const galleryId = integer('A gallery id', 1, Number.MAX_SAFE_INTEGER);

function formatOption(formats: readonly string[] = OUTPUT_FORMATS): Option {
  return new Option('-f, --format <format>', formats.length === OUTPUT_FORMATS.length ? FORMAT_HELP : `${formats.join(' or ')}`)
    .choices(formats)
    .default('text');
}

function withConnection(command: Command): Command {
  return command
    .option('--base-url <url>', 'the service address, or "sandbox" [env SPOT_BASE_URL]')
    .option('--token-url <url>', 'the token endpoint [env SPOT_TOKEN_URL; default: {base URL}/api/v2/access_token]')
    .option('--api-version <version>', `API version in request paths [env SPOT_API_VERSION; default ${DEFAULT_API_VERSION}]`)
    .option('--client-id <id>', 'client id issued by the service operator [env SPOT_CLIENT_ID]')
    .option('--client-secret-stdin', 'read the client secret from standard input [else env SPOT_CLIENT_SECRET]')
    .addOption(new Option('--sandbox', 'use the built-in sandbox (same as SPOT_BASE_URL=sandbox)').conflicts('baseUrl'))
    .option('--config <file>', 'settings file [default: the nearest spot-import.json]');
}

/**
 * commander repeats an unknown option as typed, a value given with = included: that value may be
 * a secret (`--client-secret=…` given to a command without that option), so only its name is.
 */
function withoutOptionValues(message: string): string {
  return message.replace(/(unknown option '-[^'=\s]*)=[^']*'/g, "$1=…'");
}

export function buildProgram(context: CliContext, setExitCode: (code: number) => void): Command {
  const program = new Command('spot-import')
    .description('Validate, import and upload geo-located spot documents and their gallery media, with the same core as the Spot Import VS Code extension.')
    .version(context.version, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help (every command has its own)')
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({
      writeOut: (text) => context.stdout.write(text),
      writeErr: (text) => context.stderr.write(text),
      outputError: (text, write) => write(`spot-import: ${withoutOptionValues(text.replace(/^error: /, ''))}`),
    })
    .exitOverride()
    .addHelpText('after', MORE_HELP);

  program
    .command('validate')
    .description(
      'check spot documents and folders of them (recursively), media folders, and the rows of tables (CSV, TSV, GeoJSON, NDJSON, XLSX, shapefiles, ZIP archives, photo folders, with a mapping), without sending anything',
    )
    .argument('<path...>', 'documents, folders, media folders, tables')
    .option('--config <file>', 'settings file [default: the nearest spot-import.json]')
    .option(MAPPING, MAPPING_HELP)
    .option('--topic <id>', 'the project topic: a document with another topic_id is invalid', integer('--topic', 1, Number.MAX_SAFE_INTEGER))
    .option(TOPICS_FOLDER, TOPICS_FOLDER_HELP)
    .addOption(formatOption())
    .action(async (paths: string[], options) => setExitCode(await runValidate(paths, options, context)));

  withConnection(
    program
      .command('import')
      .description('import spot documents with their media, or the rows of one table as spots; an interrupted or failed run is finished by running it again')
      .argument('<path...>', 'documents and folders of them, or one table (CSV, TSV, GeoJSON, NDJSON, XLSX, shapefile, ZIP archive, photo folder)'),
  )
    .option(MAPPING, MAPPING_HELP)
    .option('--no-media', 'import the documents only: media folders are not looked at, gallery fields set to null stay pending')
    .option('--no-write-back', 'leave the documents as they are: the journal (.spot-import/) remembers their gallery ids and state')
    .option('--keep-in-progress', 'after the media, leave the spots in state 2 instead of importing them again with state 1')
    .option('--refresh-downloads', 'ask the servers again for photos a table gives by web address that an earlier run fetched (.spot-import/downloads/)')
    .option(PHOTO_LOGIN, PHOTO_LOGIN_HELP, repeated, [])
    .option(
      '--concurrency <n>',
      `documents in flight at once, ${MIN_CONCURRENCY} to ${MAX_CONCURRENCY} [default ${DEFAULT_CONCURRENCY}, or "concurrency" in spot-import.json]`,
      integer('--concurrency', MIN_CONCURRENCY, MAX_CONCURRENCY),
    )
    .option('--topic <id>', 'the project topic: a document with another topic_id is not sent', integer('--topic', 1, Number.MAX_SAFE_INTEGER))
    .option(TOPICS_FOLDER, TOPICS_FOLDER_HELP)
    .option('--dry-run', 'check everything (documents, topics, media), send nothing (needs no credentials)')
    .addOption(formatOption())
    .action(async (paths: string[], options) => setExitCode(await runImport(paths, options, context)));

  program
    .command('convert')
    .description('write what the rows of a table stand for as spot documents with their media folders, to commit and import')
    .argument('<source>', 'the table (CSV, TSV, GeoJSON, NDJSON, XLSX, shapefile, ZIP archive, photo folder)')
    .requiredOption('--out <folder>', 'where the documents go')
    .option(MAPPING, MAPPING_HELP)
    .option('--force', 'write over documents that exist with other content')
    .option(PHOTO_LOGIN, PHOTO_LOGIN_HELP, repeated, [])
    .option('--config <file>', 'settings file [default: the nearest spot-import.json]')
    .option('--topic <id>', 'the project topic: a row with another topic_id is not written', integer('--topic', 1, Number.MAX_SAFE_INTEGER))
    .option(TOPICS_FOLDER, TOPICS_FOLDER_HELP)
    .addOption(formatOption())
    .action(async (source: string, options) => setExitCode(await runConvert(source, options, context)));

  program
    .command('mapping')
    .description('make a mapping for a table from its header and first rows, to complete (writes <table>.mapping.json)')
    .argument('<source>', 'the table (CSV, TSV, GeoJSON, NDJSON, XLSX, shapefile, ZIP archive, photo folder)')
    .option('--out <file>', 'where the mapping goes [default: beside the table]')
    .option('--force', 'write over a mapping that exists')
    .option('--config <file>', 'settings file [default: the nearest spot-import.json]')
    .option(TOPICS_FOLDER, TOPICS_FOLDER_HELP)
    .action(async (source: string, options) => setExitCode(await runMapping(source, options, context)));

  withConnection(program.command('upload').description('upload media files into a gallery, one after the other').argument('<file...>', 'media files'))
    .requiredOption('--gallery <id>', 'the gallery id (a whole number)', galleryId)
    .addOption(formatOption(['text', 'json', 'github', 'junit', 'sarif']))
    .action(async (files: string[], options) => setExitCode(await runUpload(files, options, context)));

  withConnection(program.command('gallery').description('show a gallery and its media').argument('<id>', 'the gallery id (a whole number)', galleryId))
    .addOption(formatOption(['text', 'json']))
    .action(async (id: number, options) => setExitCode(await runGallery(id, options, context)));

  withConnection(program.command('token').description('check the credentials: gets a token and prints its lifetime (never the token)'))
    .addOption(formatOption(['text', 'json']))
    .action(async (options) => setExitCode(await runToken(options, context)));

  program
    .command('sandbox')
    .description('run the local sandbox (the service on 127.0.0.1) until Ctrl-C; flags: spot-import sandbox --help')
    .helpOption(false)
    .allowUnknownOption()
    .allowExcessArguments()
    .argument('[flags...]', 'the sandbox flags (--port N, --data DIR, --latency-ms MS, …)')
    .addHelpText('after', () => `\n${sandboxUsage()}`)
    .action(async (flags: string[]) => setExitCode(await runSandbox(flags, context)));

  return program;
}
