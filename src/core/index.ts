// The service core: everything that knows the service, nothing that knows VS Code. The extension
// loads it on first use, in two bundles (dist/core.js for clientEntry.ts, dist/coreRest.js for the
// rest: see esbuild.js); tests and the command line import it directly.
// What the first request needs (the extension's dist/core.js); the lines after it are the rest
// (dist/coreRest.js, loaded on first use of one of its exports).
export * from './clientEntry';
export { writeFileAtomic } from './files/atomicFile';
export * from './mediaFiles';
export * from './api/spotDocumentSchema';
export * from './documents/problems';
export * from './documents/validateSpot';
export * from './documents/parseSpotText';
export * from './documents/readDocument';
export * from './documents/problemSummary';
export * from './documents/sourceIds';
export * from './documents/nesting';
export * from './import';
export * from './journal';
export * from './upload/uploadFilesToGallery';
export * from './upload/uploadFailure';
export * from './upload/mediaReply';
export * from './documents/setSpotState';
export * from './topics';
export * from './media';
