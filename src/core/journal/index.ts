// The import's journal: one append-only log per account under .spot-import/journal/, a line per
// step of each spot, held by one run at a time (runLock.ts), read back by the next run so nothing
// acknowledged is sent twice.
export { defaultJournalDir, JOURNAL_FOLDER_NAME, ImportJournal, JournalError, JournalLockedError, type JournalAccount } from './journal';
export { JournalAccounts } from './journalAccounts';
export { JOURNAL_FORMAT, type SpotJournalRecord } from './journalRecord';
