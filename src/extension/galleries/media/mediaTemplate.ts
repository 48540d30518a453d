// Which media URL template a profile's media are fetched with, and what to say when there is none.
// The template is per profile (each service has its own files host); the global setting
// spotImport.mediaUrlTemplate, which came first, stays as the fallback for profiles without one,
// so nobody loses previews they had. The sandbox profile always has its own.
import * as vscode from 'vscode';
import { ActionableError } from '../../platform/errors';
import { profileLabel, type Profile } from '../../platform/domain';
import { readSettings } from '../../platform/settings';
import { COMMAND } from '../../platform/commandIds';

export const SET_MEDIA_TEMPLATE_COMMAND = COMMAND.setMediaUrlTemplate;
export const MEDIA_TEMPLATE_EXAMPLE = 'https://files.example.org/images/{file}';

/** The input box's prompt for a media URL template, in the display language. */
export function mediaTemplatePrompt(): string {
  return vscode.l10n.t({
    message: 'Address of a media file on the files host: {file} stands for the file name the gallery lists, {id} for the media id (optional: leave empty for no previews)',
    args: [],
    comment: ['{file} and {id} are the placeholders of a media URL template: keep them as they are.'],
  });
}

/** The profile's own template, else the setting's; undefined when neither says anything. */
export function mediaUrlTemplateFor(profile: Pick<Profile, 'mediaUrlTemplate'>): string | undefined {
  return profile.mediaUrlTemplate?.trim() || readSettings().mediaUrlTemplate || undefined;
}

/** Why a media file cannot be shown, with the button that fixes it. */
export function noTemplateError(profile: Pick<Profile, 'id' | 'name' | 'kind'>): ActionableError {
  return new ActionableError(
    vscode.l10n.t('Media of "{0}" cannot be shown: the profile has no media URL template (the address the files host serves a file at, e.g. {1}).', profileLabel(profile), MEDIA_TEMPLATE_EXAMPLE),
    [{ title: vscode.l10n.t('Set Media URL Template…'), command: SET_MEDIA_TEMPLATE_COMMAND, args: [{ profileId: profile.id }] }],
  );
}
