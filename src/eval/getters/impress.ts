// Impress getters: media of a slide in a presentation on the desktop (OSWorld's get_audio_in_slide and
// get_background_image_in_slide). The presentation is fetched, the media extracted; a linked (not embedded) file
// is fetched from the desktop too.
import { basename } from 'node:path';
import { audioInSlide, backgroundImageInSlide, type SlideMedia } from '../formats/pptx/slide-media.ts';
import type { Getter } from '../registry.ts';
import { cachePath, stringKey, writeCacheFile } from './support.ts';

type Extract = (pptxPath: string, slideIndex: number, destPath: string) => Promise<SlideMedia | null>;

function slideMediaGetter(name: string, extract: Extract): Getter {
  return async (env, config) => {
    const presentation = stringKey(name, config, 'ppt_file_path');
    const dest = stringKey(name, config, 'dest');
    const data = await env.desktop.readFile(presentation);
    if (!data) return null;
    const local = await writeCacheFile(env, `${basename(dest)}.source-${basename(presentation)}`, data);
    const media = await extract(local, Number(config.slide_index ?? 0), await cachePath(env, dest));
    if (!media) return null;
    if (media.kind === 'extracted') return media.path;
    const linked = await env.desktop.readFile(media.path);
    return linked ? writeCacheFile(env, dest, linked) : null;
  };
}

export const impressGetters: Record<string, Getter> = {
  audio_in_slide: slideMediaGetter('audio_in_slide', audioInSlide),
  background_image_in_slide: slideMediaGetter('background_image_in_slide', backgroundImageInSlide),
};
