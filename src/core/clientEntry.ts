// The part of the core that the extension's first network use needs: the service client, its
// token source and HTTP dispatcher, the reply schemas and errors. The extension bundles this as
// dist/core.js; the rest of the core (documents, topics, the import engine, media, uploads to
// galleries) is dist/coreRest.js, loaded when one of its exports is first used (see esbuild.js
// and src/extension/platform/lazyCore.ts). index.ts re-exports all of this: everything but the extension
// imports the core through index.ts.
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
export * from './api/uploadFile';
export * from './files/mimeType';
