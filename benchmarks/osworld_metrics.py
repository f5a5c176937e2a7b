# The Python side of metrics-vs-python.ts: the pdf and image metrics written as OSWorld's Python evaluators compute them
# (PyMuPDF, Pillow, scikit-image, numpy), served by one persistent process so interpreter start-up is not timed.
# Protocol: one JSON request per stdin line {"metric", "args", "budget_ms", "max_runs", "warmup_ms"}; one JSON reply per stdout line
# {"score", "samples_ms"} (each sample the mean of a batch of calls lasting about 1 ms) or {"error"}. Stand-ins for packages Debian does not ship: imagehash.phash is written out
# (its algorithm: grey, LANCZOS 32x32, scipy dct on both axes, 8x8 block above its median); without rapidfuzz
# (`pip install rapidfuzz`), fuzz.ratio is difflib's ratio (same definition, pure Python: ~0.15 ms slower per pair).
import difflib
import io
import json
import operator
import os
import sys
import time

import fitz
import numpy as np
from PIL import Image, ImageChops, ImageStat
from scipy.fftpack import dct
from skimage.metrics import structural_similarity as ssim

try:
    from rapidfuzz import fuzz

    def fuzz_ratio(a, b):
        return fuzz.ratio(a, b) / 100
except ImportError:
    def fuzz_ratio(a, b):
        return difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()

try:
    from pypdf import PdfReader
except ImportError:  # check_pdf_pages falls back to PyMuPDF's page count
    PdfReader = None


# ---- pdf (chrome.py compare_pdfs / compare_pdf_images, pdf.py check_pdf_pages) ----

def compare_pdfs(pdf1_path, pdf2_path):
    if type(pdf2_path) != list:
        pdf1_path, pdf2_path = [pdf1_path], [pdf2_path]

    def extract_text_from_pdf(pdf_path):
        text = ""
        with fitz.open(pdf_path) as pdf:
            for page in pdf:
                text += page.get_text()
        return text.strip()

    score = 0.
    for path1, path2 in zip(pdf1_path, pdf2_path):
        try:
            text1 = extract_text_from_pdf(path1)
            text2 = extract_text_from_pdf(path2)
            score += fuzz_ratio(text1, text2)
        except Exception:
            pass
    return score / len(pdf2_path)


def phash(image, hash_size=8, highfreq_factor=4):
    img_size = hash_size * highfreq_factor
    image = image.convert('L').resize((img_size, img_size), Image.Resampling.LANCZOS)
    pixels = np.asarray(image)
    d = dct(dct(pixels, axis=0), axis=1)
    low = d[:hash_size, :hash_size]
    return low > np.median(low)


def compare_pdf_images(pdf1_path, pdf2_path, **kwargs):
    if not pdf1_path or not pdf2_path:
        return 0.
    if not all(map(os.path.exists, [pdf1_path, pdf2_path])):
        return 0.

    def extract_images_from_pdf(pdf_path):
        pdf_document = fitz.open(pdf_path)
        images = []
        for page_number in range(pdf_document.page_count):
            page = pdf_document[page_number]
            for img in page.get_images(full=True):
                base_image = pdf_document.extract_image(img[0])
                images.append(Image.open(io.BytesIO(base_image["image"])))
        return images

    try:
        images1 = extract_images_from_pdf(pdf1_path)
        images2 = extract_images_from_pdf(pdf2_path)
    except Exception:
        return 0.
    if len(images1) != len(images2):
        return 0.
    if not images1:
        return 1.
    hits = sum(1 for a, b in zip(images1, images2) if np.count_nonzero(phash(a) != phash(b)) <= 5)
    return hits / len(images1)


def check_pdf_pages(pdf_file, rules):
    if pdf_file is None:
        return 0.
    if PdfReader is not None:
        nb_pages = len(PdfReader(pdf_file).pages)
    else:
        nb_pages = len(fitz.open(pdf_file))
    return float(getattr(operator, rules["relation"])(nb_pages, rules["ref_value"]))


# ---- images (vlc.py compare_images, gimp.py) ----

def compare_images(image1_path, image2_path, **options):
    if not image1_path or not image2_path:
        return 0
    base_score = options.get("reference_base_result", None)
    image1 = Image.open(image1_path)
    image2 = Image.open(image2_path)
    image1_gray = image1.convert('L')
    image2_gray = image2.convert('L')
    new_size = min(image1.size, image2.size)
    image1_array = np.array(image1_gray.resize(new_size, Image.Resampling.LANCZOS))
    image2_array = np.array(image2_gray.resize(new_size, Image.Resampling.LANCZOS))
    similarity_index = ssim(image1_array, image2_array)
    if base_score is not None:
        return (similarity_index - base_score) / (1 - base_score) if similarity_index >= base_score + 0.01 else 0
    return similarity_index


def structure_check_by_ssim(img1, img2, threshold=0.9):
    if img1.width < 7 or img1.height < 7 or img2.width < 7 or img2.height < 7:
        return False
    if img1.size != img2.size:
        return False
    array1 = np.array(img1.convert('RGB'))
    array2 = np.array(img2.convert('RGB'))
    return ssim(array1, array2, channel_axis=2) >= threshold


def structure_check_by_mse(img1, img2, threshold=0.03):
    if img1.size != img2.size:
        img1 = img1.resize(img2.size, Image.Resampling.LANCZOS)
    a = np.array(img1.convert('RGB'), dtype=np.float32) / 255
    b = np.array(img2.convert('RGB'), dtype=np.float32) / 255
    return np.mean((a - b) ** 2) < threshold


def check_structure_sim(src_path, tgt_path):
    if src_path is None or tgt_path is None:
        return 0.
    try:
        img_src = Image.open(src_path)
        img_tgt = Image.open(tgt_path)
        if img_src.size != img_tgt.size:
            return 0.
        return 1. if structure_check_by_ssim(img_src, img_tgt) else 0.
    except Exception:
        return 0.


def check_structure_sim_resized(src_path, tgt_path):
    if src_path is None or tgt_path is None:
        return 0.
    img_src = Image.open(src_path)
    img_tgt = Image.open(tgt_path)
    if img_src.mode in ('RGBA', 'LA') or 'transparency' in img_src.info:
        img_src = img_src.convert('RGBA')
        bbox = img_src.split()[-1].getbbox()
        if bbox is None:
            return 0.
        img_src = img_src.crop(bbox).convert('RGB')
    img_src_resized = img_src.resize(img_tgt.size)
    return 1. if structure_check_by_ssim(img_src_resized, img_tgt) else 0.


def check_structure_sim_with_threshold(src_path, tgt_path, ssim_threshold=0.85):
    if src_path is None or tgt_path is None:
        return 0.
    try:
        img_src = Image.open(src_path)
        img_tgt = Image.open(tgt_path)
        if img_src.size != img_tgt.size:
            img_src = img_src.resize(img_tgt.size, Image.Resampling.LANCZOS)
        a = np.array(img_src.convert('RGB'))
        b = np.array(img_tgt.convert('RGB'))
        win_size = min(7, min(a.shape[0], a.shape[1]))
        if win_size % 2 == 0:
            win_size -= 1
        return 1. if ssim(a, b, channel_axis=2, win_size=win_size) >= ssim_threshold else 0.
    except Exception:
        return 0.


def compare_image_list(pred_img_path_list, gold_img_path_list):
    if type(pred_img_path_list) != list:
        pred_img_path_list, gold_img_path_list = [pred_img_path_list], [gold_img_path_list]
    for pred_path, gold_path in zip(pred_img_path_list, gold_img_path_list):
        if not pred_path or not gold_path:
            return 0.
        pred = Image.open(pred_path)
        gold = Image.open(gold_path)
        if pred.size != gold.size:
            pred = pred.resize(gold.size, Image.Resampling.LANCZOS)
        if pred.mode != gold.mode:
            pred = pred.convert(gold.mode)
        if ImageChops.difference(pred, gold).getbbox() is not None:
            return 0.
    return 1.


def check_image_size(src_path, rule):
    if src_path is None:
        return 0.
    img = Image.open(src_path)
    if rule.get("ignore_transparent", False) and img.mode in ('RGBA', 'LA') or 'transparency' in img.info:
        bbox = img.convert('RGBA').split()[-1].getbbox()
        width, height = (bbox[2] - bbox[0], bbox[3] - bbox[1]) if bbox else (0, 0)
    else:
        width, height = img.size
    height_same = rule.get("height") is None or height == rule["height"]
    width_same = rule.get("width") is None or width == rule["width"]
    return 1. if height_same and width_same else 0.


def check_image_file_size(src_path, rule):
    if src_path is None:
        return 0.
    return 1. if os.path.getsize(src_path) < rule["max_size"] else 0.


def check_config_status(actual_config_path, rule):
    with open(actual_config_path, 'r') as f:
        content = f.readlines()
    for line in content:
        if line.startswith('#') or line == '\n':
            continue
        items = line.strip().lstrip('(').rstrip(')\n').split()
        if isinstance(rule["key"], str):
            if items[0] == rule["key"] and items[-1] == rule["value"]:
                return 1.
        elif isinstance(rule["key"], list) and len(rule["key"]) == 2:
            if items[0] == rule["key"][0] and items[1] == rule["key"][1] and items[-1] == rule["value"]:
                return 1.
    return 0.


def calculate_brightness(image):
    histogram = image.convert("L").histogram()
    return sum(i * w for i, w in enumerate(histogram)) / sum(histogram)


def normalize_brightness(image, target_brightness):
    factor = target_brightness / calculate_brightness(image)
    return image.point(lambda x: min(255, max(0, int(x * factor))))


def check_brightness_decrease_and_structure_sim(src_path, tgt_path, threshold=0.03):
    if src_path is None or tgt_path is None:
        return 0.
    img_src = Image.open(src_path)
    img_tgt = Image.open(tgt_path)
    reduced = calculate_brightness(img_tgt) > calculate_brightness(img_src)
    same = structure_check_by_mse(normalize_brightness(img_src, 128), normalize_brightness(img_tgt, 128), threshold)
    return 1. if reduced and same else 0.


def check_saturation_increase_and_structure_sim(src_path, tgt_path):
    if src_path is None or tgt_path is None:
        return 0.
    hsv_src = Image.open(src_path).convert('HSV')
    hsv_tgt = Image.open(tgt_path).convert('HSV')
    h1, s1, v1 = hsv_src.split()
    h2, s2, v2 = hsv_tgt.split()
    increased = ImageStat.Stat(s2).mean[0] < ImageStat.Stat(s1).mean[0]
    same = structure_check_by_ssim(h1, h2) and structure_check_by_ssim(v1, v2)
    return 1. if increased and same else 0.


def check_contrast_increase_and_structure_sim(src_path, tgt_path):
    if src_path is None or tgt_path is None:
        return 0.
    img_src = Image.open(src_path)
    img_tgt = Image.open(tgt_path)
    higher = np.std(np.array(img_tgt)) < np.std(np.array(img_src))
    return 1. if higher and structure_check_by_ssim(img_src, img_tgt, 0.65) else 0.


def check_image_mirror(src_path, tgt_path):
    if src_path is None or tgt_path is None:
        return 0.
    img_src = Image.open(src_path).transpose(Image.Transpose.FLIP_LEFT_RIGHT)
    return 1. if structure_check_by_ssim(img_src, Image.open(tgt_path), 0.99) else 0.


def check_green_background(src_path, tgt_path):
    if src_path is None or tgt_path is None:
        return 0.
    img = np.array(Image.open(src_path))
    mask = np.array(Image.open(tgt_path))
    for x in range(mask.shape[1]):
        for y in range(mask.shape[0]):
            if (mask[x, y][:3] == [0, 0, 0]).all():
                continue
            r, g, b = img[x, y][:3]
            if not (g > r and g > b):
                return 0.
    return 1.


def check_palette_and_structure_sim(src_path, tgt_path):
    if src_path is None or tgt_path is None:
        return 0.
    source = Image.open(src_path)
    palette_based = source.mode == 'P'
    return 1. if palette_based and structure_check_by_ssim(source.convert('RGB'), Image.open(tgt_path)) else 0.


def check_triangle_position(tgt_path):
    if tgt_path is None:
        return 0.
    img_array = np.array(Image.open(tgt_path))
    colors, counts = np.unique(img_array.reshape(-1, img_array.shape[2]), axis=0, return_counts=True)
    triangle_color = colors[np.argsort(counts)][1]
    rows, cols = np.where(np.all(img_array == triangle_color, axis=2))
    centroid = (np.mean(rows), np.mean(cols))
    centre = (img_array.shape[0] / 2, img_array.shape[1] / 2)
    tolerance = (0.05 * img_array.shape[0], 0.05 * img_array.shape[1])
    inside = abs(centroid[0] - centre[0]) < tolerance[0] and abs(centroid[1] - centre[1]) < tolerance[1]
    return 1. if inside else 0.


def check_textbox_on_leftside(src_path):
    if src_path is None:
        return 0.
    img = Image.open(src_path).convert('L')
    width, height = img.size
    left_most = width
    for y in range(height):
        for x in range(width):
            if img.getpixel((x, y)) < 128:
                left_most = min(left_most, x)
                break
    return 1. if left_most < width * 0.05 else 0.


def check_file_exists_and_structure_sim(src_path, tgt_path=None):
    if src_path is None or not os.path.exists(src_path):
        return 0.
    return 1. if structure_check_by_ssim(Image.open(src_path), Image.open(tgt_path)) else 0.


BATCH_MS = 1.0


def batch_size(call):
    """Calls per timed sample, so that one sample lasts about BATCH_MS: a microsecond metric timed call by call would
    measure the timer (the same rule as the JavaScript side)."""
    t0 = time.perf_counter()
    call()
    once_ms = (time.perf_counter() - t0) * 1000
    return max(1, min(10000, int(BATCH_MS / max(once_ms, 1e-6))))


def main():
    for line in sys.stdin:
        request = json.loads(line)
        try:
            metric = globals()[request["metric"]]
            args = request["args"]
            budget = request["budget_ms"] / 1000
            samples = []
            score = None
            warm_start = time.perf_counter()
            while True:  # untimed calls for warmup_ms, as the JavaScript side does
                metric(*args)
                if time.perf_counter() - warm_start >= request["warmup_ms"] / 1000:
                    break
            started = time.perf_counter()
            batch = batch_size(lambda: metric(*args))
            while len(samples) < request["max_runs"] and (len(samples) < 5 or time.perf_counter() - started < budget):
                t0 = time.perf_counter()
                for _ in range(batch):
                    score = metric(*args)
                samples.append((time.perf_counter() - t0) * 1000 / batch)
            reply = {"score": float(score), "samples_ms": samples}
        except Exception as error:  # reported, not fatal: the other metrics still run
            reply = {"error": f"{type(error).__name__}: {error}"}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
