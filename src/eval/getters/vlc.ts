// VLC getters (OSWorld getters/vlc.py): the player's status from its HTTP interface, and its config file.
import type { Getter } from '../registry.ts';
import { stringKey, writeCacheFile } from './support.ts';
import { GetterError } from '../errors.ts';

/**
 * `vlc_playing_info {dest}`: `/requests/status.xml` saved to `cacheDir/dest`; null on HTTP errors. The desktop's
 * service headers authenticate: OSWorld's basic auth on a VM, the token for our container's front (which adds VLC's
 * own per-desktop password).
 */
const getVlcPlayingInfo: Getter = async (env, config) => {
  const dest = stringKey('vlc_playing_info', config, 'dest');
  if (!env.vlc) throw new GetterError('vlc_playing_info: no VLC HTTP endpoint (env.vlc) for this desktop');
  const response = await fetch(`${env.vlc.url.replace(/\/+$/, '')}/requests/status.xml`, { headers: env.vlc.headers, signal: env.signal });
  if (response.status !== 200) return null;
  return writeCacheFile(env, dest, new Uint8Array(await response.arrayBuffer()));
};

/**
 * `vlc_config {dest}`: `~/.config/vlc/vlcrc` saved to `cacheDir/dest`; null when VLC never wrote it. The copy in the
 * results has the HTTP interface's password masked: in our desktop it is the desktop's own secret, and no metric
 * reads it (OSWorld's VLC checks read the interface and slider settings).
 */
const getVlcConfig: Getter = async (env, config) => {
  const dest = stringKey('vlc_config', config, 'dest');
  const data = await env.desktop.readFile('~/.config/vlc/vlcrc');
  return data === null ? null : writeCacheFile(env, dest, Buffer.from(maskHttpPassword(data.toString('latin1')), 'latin1'));
};

/** `http-password=<secret>` lines (set or commented out) with the value replaced by `***`. */
function maskHttpPassword(vlcrc: string): string {
  return vlcrc.replace(/^(#?\s*http-password=).+$/gm, '$1***');
}

export const vlcGetters: Record<string, Getter> = {
  vlc_playing_info: getVlcPlayingInfo,
  vlc_config: getVlcConfig,
};
