// The import engine: spots with or without media in one resumable run (runImport, over a
// SpotSource), a spot's steps (spotSteps.ts), the outcome types, the import's rules, concurrency.
export { runImport, streamImport, checkSpots, importOneSpot, journalAccountOf, serviceUrlOf, type SpotsOrSource, type ImportStreamEnd } from './runImport';
export * from './types';
export { spotDocumentFiles, type DocumentFilesOptions, type DocumentSource } from './spotDocumentFiles';
export { checkSpotForImport, withTopicRules } from './checkForImport';
export { writeSpotFileInPlace } from './writeBack';
export { runStopCause } from './runStopWords';
export * from './sendSpot';
export * from './concurrency';
export * from './importRules';
