// An active profile whose service is a loopback proxy in front of the test sandbox that keeps the
// exact bytes of every import request body: for tests of what the commands put on the wire.
import { startCaptureProxy, type CaptureProxy } from '../../unit/helpers/captureProxy';
import { addProfileAt, useTestProfile } from './testEnv';

export interface CaptureProfile {
  /** The profile's name, as the commands' messages show it. */
  name: string;
  proxy: CaptureProxy;
  /** Removes the profile, makes the test profile active again and stops the proxy. */
  close(): Promise<void>;
}

export async function useCaptureProfile(name: string): Promise<CaptureProfile> {
  const { sandbox } = await useTestProfile();
  const proxy = await startCaptureProxy(sandbox.baseUrl);
  const added = await addProfileAt(name, proxy.baseUrl);
  await added.services.profiles.setActive(added.profile.id);
  return {
    name,
    proxy,
    close: async () => {
      await added.remove();
      await proxy.close();
    },
  };
}
