// Why a file a table is read from cannot be read, in the same words for every kind of table (a
// text table, a photo of a photo folder): from the system's error code, never its raw message alone.
import { l10n } from '../../text/l10n';

export function whyUnreadable(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return l10n.t('there is no such file');
  if (code === 'EISDIR') return l10n.t('it is a folder, not a file');
  if (code === 'EACCES' || code === 'EPERM') return l10n.t('it may not be read (permission denied)');
  return l10n.t('it cannot be read: {0}', error instanceof Error ? error.message : String(error));
}
