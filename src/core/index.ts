// The service core: everything that knows the service, nothing that knows VS Code. The extension
// loads this bundle (dist/core.js) on first use; tests and the command line import it directly.
export * from './api/spotSchema';
export * from './api/replySchemas';
export * from './api/errors';
export * from './api/redact';
export * from './api/certificates';
export * from './api/http';
export * from './api/secureUrl';
export * from './api/apiVersion';
export * from './api/requestDefaults';
export * from './api/retryPolicy';
export * from './api/tokenSource';
export * from './api/serviceClient';
export * from './upload/uploadFile';
export * from './mediaFiles';
export * from './documents/problems';
export * from './documents/validateSpot';
export * from './documents/parseSpotText';
export * from './documents/readDocument';
export * from './documents/problemSummary';
export * from './documents/sourceIds';
export * from './documents/nesting';
export * from './import/bulkImport';
export * from './import/sendSpot';
export * from './documents/setSpotState';
export * from './topics';
export * from './media';
