// The client credentials: the id from a flag, the environment or the project file; the secret only
// from the environment (SPOT_CLIENT_SECRET, filled from CI's secret store) or standard input
// (--client-secret-stdin), never from a flag (process lists show flags) or a file in the repository.
import { CliError, EXIT } from '../exit';
import type { CliSettings } from './resolveSettings';

export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
}

export async function resolveCredentials(
  settings: CliSettings,
  secretFromStdin: boolean,
  stdin: NodeJS.ReadStream = process.stdin,
): Promise<ClientCredentials> {
  const clientId = settings.clientId?.value;
  if (!clientId) {
    throw new CliError(
      'No client id: pass --client-id, set SPOT_CLIENT_ID, or add "clientId" to spot-import.json (or use --sandbox to try without an account).',
    );
  }
  const clientSecret = secretFromStdin ? await readSecret(stdin) : settings.clientSecretFromEnv;
  if (!clientSecret) {
    throw new CliError('No client secret: set SPOT_CLIENT_SECRET (in CI: from its secret store), or pipe it to --client-secret-stdin.');
  }
  return { clientId, clientSecret };
}

/** Everything on standard input, less one line ending: `printf %s "$SECRET" | …` and `echo` both work. */
async function readSecret(stdin: NodeJS.ReadStream): Promise<string> {
  if (stdin.isTTY && typeof stdin.setRawMode === 'function') return typeSecret(stdin, process.stderr);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stdin) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buffer.length;
    // A secret is short; anything this long is a file piped in by mistake.
    if (size > 64 * 1024) throw new CliError('--client-secret-stdin: standard input is longer than any client secret; pipe only the secret.');
    chunks.push(buffer);
  }
  const secret = Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
  if (!secret) throw new CliError('--client-secret-stdin: standard input was empty; pipe the client secret to it.');
  return secret;
}

/**
 * The secret typed on a terminal, not shown: the terminal's echo is off (raw mode) while it is
 * typed, Enter ends it, Backspace takes back a character, Ctrl-C gives up (exit 130). Keys that
 * send escape sequences (arrows, Home, Delete) are ignored rather than taken into the secret.
 */
function typeSecret(stdin: NodeJS.ReadStream, prompt: NodeJS.WritableStream): Promise<string> {
  // Echo off before the prompt shows: a secret typed (or pasted) at once is never echoed.
  stdin.setRawMode(true);
  // Characters, not bytes: one typed character may arrive in two chunks.
  stdin.setEncoding('utf8');
  prompt.write('Client secret (not shown as you type; Enter when done): ');
  return new Promise<string>((resolve, reject) => {
    let typed: string[] = [];
    let escape: string | undefined;
    const finish = (outcome: () => void) => {
      stdin.off('data', onData);
      stdin.off('end', onEnd);
      stdin.off('error', onError);
      stdin.setRawMode(false);
      stdin.pause();
      prompt.write('\n');
      outcome();
    };
    const onEnd = () => finish(() => reject(new CliError('--client-secret-stdin: the terminal closed before the secret was typed.')));
    const onError = (error: Error) => finish(() => reject(new CliError(`--client-secret-stdin: could not read the terminal (${error.message}).`)));
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (escape !== undefined) {
          // ESC [ … final byte (a letter or ~), or ESC and one character.
          escape += char;
          if (escape.length > 1 && (escape[0] !== '[' || /[A-Za-z~]/.test(char))) escape = undefined;
          continue;
        }
        if (char === '\u001b') escape = '';
        else if (char === '\r' || char === '\n' || char === '\u0004') {
          const secret = typed.join('');
          return finish(() =>
            secret ? resolve(secret) : reject(new CliError('--client-secret-stdin: nothing was typed; type the client secret, then Enter.')),
          );
        } else if (char === '\u0003') return finish(() => reject(new CliError('Cancelled: no client secret was typed.', EXIT.interrupted)));
        else if (char === '\u007f' || char === '\b') typed = typed.slice(0, -1);
        else if (char >= ' ') typed.push(char);
      }
    };
    stdin.on('data', onData);
    stdin.once('end', onEnd);
    stdin.once('error', onError);
    stdin.resume();
  });
}
