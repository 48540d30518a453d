// Spots with their media in one resumable step (see runMediaWorkflow), and the pieces a front end
// shows on its own: the media folder convention, the checks, the journal's location.
export { runMediaWorkflow, streamMediaWorkflow, importSpotWithMedia, serviceUrlOf, DEFAULT_MEDIA_CONCURRENCY, type WorkflowStream, type WorkflowStreamEnd } from './mediaWorkflow';
export { mediaFolderFor, noMediaLayout, listSpotMedia, mediaCount, compareMediaNames, type MediaLayout, type MediaGroup, type MediaFileEntry } from './mediaLayout';
export { checkSpotMedia, type SpotMediaCheck, type SpotProblem, type GalleryPlan, type CheckedMediaFile, type CheckOptions } from './checkSpotMedia';
export { DEFAULT_ACCEPTED_TYPES, isAcceptedType } from './acceptedTypes';
export { defaultJournalDir, JOURNAL_FOLDER_NAME, MediaJournal, JournalError, JournalLockedError, type JournalAccount } from './journal';
export { JOURNAL_FORMAT, type SpotJournalRecord } from './journalRecord';
export { writeSpotFileInPlace } from './writeBack';
export * from './types';
