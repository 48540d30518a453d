// The import engine: spots with or without media in one resumable run (runMediaWorkflow, over a
// SpotSource), and the pieces a front end shows on its own: the media folder convention, the
// checks, the journal's location.
export { runMediaWorkflow, streamMediaWorkflow, importOneSpot, journalAccountOf, serviceUrlOf, type SpotsOrSource, type WorkflowStreamEnd } from './mediaWorkflow';
export { spotDocumentFiles, type DocumentFilesOptions, type DocumentSource } from './spotDocumentFiles';
export { checkSpotForImport, withTopicRules } from './checkForImport';
export { mediaFolderFor, noMediaLayout, listSpotMedia, mediaCount, compareMediaNames, type MediaLayout, type MediaGroup, type MediaFileEntry } from './mediaLayout';
export { checkSpotMedia, type SpotMediaCheck, type SpotProblem, type GalleryPlan, type CheckedMediaFile, type CheckOptions } from './checkSpotMedia';
export { DEFAULT_ACCEPTED_TYPES, isAcceptedType } from './acceptedTypes';
export { checkMediaFile, type MediaFileVerdict } from './mediaFileRules';
export { defaultJournalDir, JOURNAL_FOLDER_NAME, MediaJournal, JournalError, JournalLockedError, type JournalAccount } from './journal';
export { JOURNAL_FORMAT, type SpotJournalRecord } from './journalRecord';
export { writeSpotFileInPlace } from './writeBack';
export * from './types';
