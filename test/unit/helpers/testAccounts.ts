// The journal accounts the unit tests' runs share, as the runs of one extension window or one
// command-line process do (each front end makes its own JournalAccounts).
import { JournalAccounts } from '../../../src/core/journal/journalAccounts';

export const testAccounts = new JournalAccounts();
