// Impress (pptx) metrics under OSWorld's names (desktop_env/evaluators/metrics/slides.py). Presentations are read
// as python-pptx 1.0.2 reads them: see ../../formats/pptx/ (presentation.ts, slide-media.ts).
import type { Metric } from '../../registry.ts';
import { comparePptxFiles } from './compare.ts';
import {
  checkAutoSavingTime,
  checkImageStretchAndCenter,
  checkLeftPanel,
  checkPageNumberColors,
  checkPresenterConsoleDisable,
  checkSlideOrientationPortrait,
  checkStrikethrough,
  checkTransition,
  evaluatePresentationFillToRgbDistance,
} from './slide-checks.ts';

export const pptxMetrics: Record<string, Metric> = {
  compare_pptx_files: comparePptxFiles,
  check_presenter_console_disable: checkPresenterConsoleDisable,
  check_slide_orientation_Portrait: checkSlideOrientationPortrait,
  check_transition: checkTransition,
  check_page_number_colors: checkPageNumberColors,
  check_strikethrough: checkStrikethrough,
  check_image_stretch_and_center: checkImageStretchAndCenter,
  check_left_panel: checkLeftPanel,
  check_auto_saving_time: checkAutoSavingTime,
  evaluate_presentation_fill_to_rgb_distance: evaluatePresentationFillToRgbDistance,
};
