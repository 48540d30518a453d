// Why a journal cannot be used. Its own module, so the log (recordLog.ts) and the journal that
// owns it (journal.ts) can both raise them.
import { ServiceError } from '../api/errors';

/** The journal cannot be used (damaged, another format, locked by another run): nothing was sent. */
export class JournalError extends ServiceError {
  constructor(
    message: string,
    readonly file: string,
  ) {
    super('configuration', message);
    this.name = 'JournalError';
  }
}

/** Another process works with this account's journal: nothing can be done until it has finished. */
export class JournalLockedError extends JournalError {
  constructor(message: string, file: string) {
    super(message, file);
    this.name = 'JournalLockedError';
  }
}
