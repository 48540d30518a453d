// The extension's one redactor: the log, every message shown to the user, and the token sources
// of every profile share this instance, so a value registered anywhere (a secret entered, a token
// obtained) is masked everywhere. The rules live in the core (src/core/api/redact.ts).
// No vscode import: the same rules apply in tests.
import { Redactor } from '../../core/api/redact';

export { Redactor };

export const sharedRedactor = new Redactor();

/** Masks every registered secret and every credential shape in text meant for a person. */
export function redactForDisplay(text: string): string {
  return sharedRedactor.redact(text);
}

/** Turns log details into text: errors with their kind, status and cause; objects as JSON. */
export function formatDetail(detail: unknown): string {
  if (detail instanceof Error) {
    const extra = detail as Error & {
      kind?: string;
      status?: number;
      serverMessage?: string;
      cause?: unknown;
      details?: { cause?: unknown; requestSent?: string };
    };
    const parts = [`${detail.name}: ${detail.message}`];
    if (extra.kind) parts.push(`kind=${extra.kind}`);
    if (extra.status !== undefined) parts.push(`status=${extra.status}`);
    if (extra.serverMessage) parts.push(`server="${extra.serverMessage}"`);
    if (extra.details?.requestSent) parts.push(`requestSent=${extra.details.requestSent}`);
    if (detail.stack) parts.push('\n' + detail.stack.split('\n').slice(1, 6).join('\n'));
    // The core keeps the transport's error as details.cause.
    const cause = extra.cause ?? extra.details?.cause;
    if (cause instanceof Error) parts.push(`\ncaused by ${formatDetail(cause)}`);
    return parts.join(' ');
  }
  if (typeof detail === 'string') return detail;
  try {
    return JSON.stringify(detail);
  } catch {
    return String(detail);
  }
}
