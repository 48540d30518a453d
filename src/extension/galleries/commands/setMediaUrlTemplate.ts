// Set Media URL Template…: where a profile's files host serves a media file, e.g.
// https://files.example.org/images/{file}. Kept with the profile (each service has its own files
// host); left empty, the spotImport.mediaUrlTemplate setting applies to the profile.
import * as vscode from 'vscode';
import { required } from '../../platform/cancellation';
import type { ExtensionServices } from '../../platform/services';
import { profileLabel } from '../../platform/domain';
import { MEDIA_TEMPLATE_EXAMPLE, mediaTemplatePrompt } from '../media/mediaTemplate';
import { profileIdOf, requireActiveProfile } from './galleryArgs';

export async function setMediaUrlTemplate(services: ExtensionServices, arg?: unknown): Promise<void> {
  const profileId = profileIdOf(arg) ?? requireActiveProfile(services).id;
  const profile = services.profiles.get(profileId) ?? requireActiveProfile(services);
  if (profile.kind === 'sandbox') {
    await services.ui.showInformationMessage(
      profile.mediaUrlTemplate
        ? vscode.l10n.t(
            '"{0}" serves the media it stores itself; its media URL template is set for you ({1}).',
            profileLabel(profile),
            profile.mediaUrlTemplate,
          )
        : vscode.l10n.t('"{0}" serves the media it stores itself; its media URL template is set for you.', profileLabel(profile)),
    );
    return;
  }
  const core = await services.core();
  const template = required(
    await services.ui.showInputBox({
      title: vscode.l10n.t('Media URL template of "{0}"', profileLabel(profile)),
      prompt: mediaTemplatePrompt(),
      placeHolder: MEDIA_TEMPLATE_EXAMPLE,
      value: profile.mediaUrlTemplate ?? '',
      validateInput: (value) => core.checkMediaUrlTemplate(value),
    }),
  ).trim();
  await services.profiles.setMediaUrlTemplate(profile.id, template);
  vscode.window.setStatusBarMessage(
    template
      ? vscode.l10n.t('Media URL template of {0} set', profileLabel(profile))
      : vscode.l10n.t('Media URL template of {0} cleared', profileLabel(profile)),
    3000,
  );
}
