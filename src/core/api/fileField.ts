// The multipart field an upload carries the file in, as the service's interface names it. No
// dependencies: the extension's settings, the client and the sandbox all read this one value.
export const DEFAULT_FILE_FIELD_NAME = 'data[attributes][file]';
