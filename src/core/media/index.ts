// Spots' media: the media folder beside a document (its layout and convention), the checks of a
// spot and its files before anything is sent, and the accepted types. The import engine that
// uploads them is in ../import, its journal in ../journal.
export { mediaFolderFor, noMediaLayout, listSpotMedia, mediaCount, compareMediaNames, type MediaLayout, type MediaGroup, type MediaFileEntry } from './mediaLayout';
export { checkSpotMedia, type SpotMediaCheck, type SpotProblem, type GalleryPlan, type CheckedMediaFile, type CheckOptions } from './checkSpotMedia';
export { DEFAULT_ACCEPTED_TYPES, isAcceptedType } from './acceptedTypes';
export { checkMediaFile, type MediaFileVerdict } from './mediaFileRules';
export { PhotoFetcher, FetchError, isSendableHeaderValue, type FetchHeader, type FetchedPhoto } from './remote/photoFetcher';
