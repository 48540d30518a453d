// What the extension deals in: profiles (a service and how to reach it), their client
// credentials, and the galleries the user knows; and the stores that keep them. Plain types and
// two tiny helpers, no behaviour: every layer above the core reads these.
import type * as vscode from 'vscode';
// The core's l10n, not vscode's: this file stays free of vscode (unit tests load it through errors.ts).
import { l10n } from '../../core/text/l10n';

type ProfileKind = 'remote' | 'sandbox';

export interface Profile {
  /** Stable id; the built-in sandbox profile's id is SANDBOX_PROFILE_ID. */
  id: string;
  name: string;
  kind: ProfileKind;
  baseUrl: string;
  /** Absent: derived from baseUrl as {baseUrl}/api/v2/access_token. */
  tokenUrl?: string;
  apiVersion: string;
  topicId?: number;
  /**
   * Where the files host serves a media file: an https address with {file} (the name the gallery
   * lists) and/or {id} (the media id). Absent: the spotImport.mediaUrlTemplate setting applies.
   * The sandbox profile's is set from the running sandbox's address.
   */
  mediaUrlTemplate?: string;
}

export const SANDBOX_PROFILE_ID = 'local-sandbox';

export type ProfileState = 'noCredentials' | 'ready' | 'rejected';

export interface ProfileStore {
  readonly onDidChange: vscode.Event<void>;
  /** Reads the stored profiles again (another window may have changed them); onDidChange fires if they differ. */
  refresh(): void;
  list(): Profile[];
  active(): Profile | undefined;
  state(profile: Profile): Promise<ProfileState>;
  get(id: string): Profile | undefined;
  /** Adds a remote profile (URLs checked: https, or http only for loopback). */
  add(input: Omit<Profile, 'id' | 'kind'>): Promise<Profile>;
  remove(id: string): Promise<void>;
  /** Sets (or, with '' or undefined, clears) a remote profile's media URL template (checked first). */
  setMediaUrlTemplate(id: string, template: string | undefined): Promise<void>;
  /** undefined: no active profile (the welcome view asks for one). */
  setActive(id: string | undefined): Promise<void>;
}

/** How a profile is shown everywhere: the built-in sandbox is always marked "(sandbox)". */
export function profileLabel(profile: Pick<Profile, 'name' | 'kind'>): string {
  return profile.kind === 'sandbox' ? l10n.t('{0} (sandbox)', profile.name) : profile.name;
}

export interface Credentials {
  clientId: string;
  clientSecret: string;
}

/** Client credentials per profile, only ever in SecretStorage. */
export interface CredentialStore {
  /** Fires with the profile id whose credentials changed (in this or another window). */
  readonly onDidChange: vscode.Event<string>;
  get(profileId: string): Promise<Credentials | undefined>;
  set(profileId: string, credentials: Credentials): Promise<void>;
  delete(profileId: string): Promise<void>;
}

/** Where a known gallery came from: an import's pending gallery, or added by id. */
export interface KnownGallery {
  galleryId: number;
  /** documentUri: the spot document the import read (Uri.toString()), for Mark Spot Active; absent for older entries. */
  spot?: { spotId: number; sourceId: string; documentUri?: string };
  field?: string;
  /** True while it came back as pending from an import and has no upload recorded yet. */
  pending: boolean;
}

/** The galleries the user knows, remembered per profile (globalState). */
export interface GalleryStore {
  readonly onDidChange: vscode.Event<void>;
  list(profileId: string): KnownGallery[];
  add(profileId: string, galleries: KnownGallery[]): Promise<void>;
  remove(profileId: string, galleryId: number): Promise<void>;
  markUploaded(profileId: string, galleryId: number): Promise<void>;
}
