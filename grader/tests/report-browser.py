#!/usr/bin/env python3
"""report-browser.py SCAN_GRADE KIT OUT [WORK]: grades the corpus entry
lab02-modulo-mapping (lab 02, emulator; in the grader's work folder WORK,
default OUT/work) and renders its report.html in
headless Chromium: the rendered DOM must open on what to fix first, then
the source before the folded tests, and hold the score table, both
divergence maps with every cell, the source listing and the feedback, and the
screenshot (decoded here with zlib) must be the window's size, not blank, and
show the colours of the student's partially active cells (the modulo mapping
diverges, so its map has cells below 100%). TAP on standard output (tap.py);
skipped where no Chromium is installed. Standard library only."""

import os
import re
import shutil
import subprocess
import sys
import tempfile

from browser import Dom, chromium, png_pixels
from tap import end, expect as check, note, skip_all

ENTRY = "lab02-modulo-mapping"
WIDTH, HEIGHT = 1280, 2400


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit("usage: report-browser.py SCAN_GRADE KIT OUT [WORK]")
    grade, kit, out = sys.argv[1:4]
    work = sys.argv[4] if len(sys.argv) == 5 else os.path.join(out, "work")
    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    if not binary:
        skip_all("chromium not found: neither chromium nor chromium-browser is on PATH "
                 "(apt-get install chromium to render report.html)")

    os.makedirs(out, exist_ok=True)
    results = os.path.join(out, ENTRY)
    shutil.rmtree(results, ignore_errors=True)
    graded = subprocess.run([grade, os.path.join(kit, "grader", "tests", "corpus", ENTRY), "--lab", "02",
                             "--backend", "emu", "--work", work, "--out", results, "--no-colour"],
                            capture_output=True, text=True, timeout=1500)
    page = os.path.join(results, "report.html")
    if not check(graded.returncode == 0 and os.path.isfile(page), f"scan-grade graded {ENTRY} and wrote report.html"):
        note(graded.stdout[-4000:] + graded.stderr[-4000:])
        return end()
    feedback = open(os.path.join(results, "feedback.txt"), encoding="utf-8").read()
    source = open(os.path.join(kit, "grader", "tests", "corpus", ENTRY, "labs", "02-brent-kung", "scan.cu"),
                  encoding="utf-8").read()
    source_lines = len(source.split("\n")) - source.endswith("\n")

    with tempfile.TemporaryDirectory(prefix="report-browser-") as profile:
        url = "file://" + os.path.abspath(page)
        dumped = chromium(binary, profile, "--dump-dom", url)
        check(dumped.returncode == 0 and "</html>" in dumped.stdout, f"chromium --dump-dom rendered the page (exit {dumped.returncode})")
        shot = os.path.join(profile, "shot.png")
        shooting = chromium(binary, profile, f"--screenshot={shot}", f"--window-size={WIDTH},{HEIGHT}", url)
        if not check(shooting.returncode == 0 and os.path.isfile(shot), f"chromium --screenshot wrote a PNG (exit {shooting.returncode})"):
            note(shooting.stderr[-2000:])
            return end()
        width, height, rows = png_pixels(shot)
        shutil.copy(shot, os.path.join(results, "report-screenshot.png"))  # for a person to look at

    dom = Dom()
    dom.feed(dumped.stdout)
    page_text = open(page, encoding="utf-8").read()

    # What to fix first opens the page; the source comes before the tests, which are folded.
    sections = [e[1].get("class", "") for e in dom.find("section")]
    check(sections[0].split()[:1] == ["fix-first"] and "source" in sections and sections.index("source") < sections.index("tests"),
          f"the page opens on what to fix first, then the source, then the tests: {sections[:6]}")
    fix = dom.find("section", "fix-first")
    # The modulo mapping computes every dataset right (its divergence alone costs points).
    check("[failed] lab02 correctness" not in feedback and bool(fix)
          and "Nothing to fix: every dataset came out right." in fix[0][2],
          "what to fix first: nothing, as every correctness test passed", fix[0][2][:300] if fix else None)
    check(not any("open" in e[1] for e in dom.find("details")), "every test's dataset-by-dataset detail is folded")
    # The score table: the header and lab 02's row.
    tables = dom.find("table", "scores")
    check(len(tables) == 1 and all(w in tables[0][2] for w in ("correctness", "safety", "divergence", "timing", "02-brent-kung")),
          "the score table, with lab 02's row and every component")
    # The divergence maps: the student's and the reference's, every warp of every step a cell.
    maps = dom.find("svg", "divmap")
    captions = [e[2] for e in dom.find("figcaption")]
    check(len(maps) == 2, f"two divergence maps (yours, the reference's): {len(maps)}")
    cells = dom.find("rect", "cell")
    steps = {int(c[1]["data-step"]) for c in cells}
    warps = {int(c[1]["data-warp"]) for c in cells}
    check(len(warps) == 32 and len(cells) == 2 * len(steps) * 32,
          f"each map has a cell per warp (32) and step ({len(steps)}): {len(cells)} cells")
    mine, reference = cells[:len(cells) // 2], cells[len(cells) // 2:]
    partial = [c for c in mine if c[1]["data-fraction"] and float(c[1]["data-fraction"]) < 1]
    ref_partial = [c for c in reference if c[1]["data-fraction"] and float(c[1]["data-fraction"]) < 1]
    check(len(partial) > len(ref_partial) > 0,
          f"the modulo mapping has more partially active cells than the reference: {len(partial)} against {len(ref_partial)}")
    graded_eff = re.search(r"SIMT efficiency ([0-9.]+)% against the reference's ([0-9.]+)%", feedback)
    shown = [re.search(r"(Yours|Reference): SIMT efficiency ([0-9.]+)%", c) for c in captions]
    check(graded_eff is not None and len(shown) == 2 and all(shown)
          and [shown[0].group(2), shown[1].group(2)] == [graded_eff.group(1), graded_eff.group(2)],
          f"the maps' titles give the graded efficiencies: {captions} against feedback.txt's "
          f"{graded_eff.groups() if graded_eff else None}")
    # The source listing with its findings section, and the feedback per test.
    listed = len(dom.find("td", "ln"))
    check(len(dom.find("section", "source")) == 1 and listed == source_lines,
          f"the source and findings section lists scan.cu's {source_lines} lines: {listed}")
    tests = dom.find("details", "test")
    check(len(tests) >= 7 and "control divergence" in tests[0][2] and "failed" in tests[0][1]["class"],
          f"the feedback: {len(tests)} tests, the failed divergence test first")
    check("Timing was not gradable here" in dumped.stdout, "the timing section says it was not gradable here")
    check(not re.search(r"https?://|<script|\ssrc=", page_text), "report.html references nothing outside itself")

    # The screenshot: the window's size, not blank, and the map's colours on it.
    check((width, height) == (WIDTH, HEIGHT), f"the screenshot is {WIDTH}x{HEIGHT}: {width}x{height}")
    counts = {}
    for row in rows:
        for pixel in row:
            counts[pixel] = counts.get(pixel, 0) + 1
    white = counts.get((255, 255, 255), 0)
    check(len(counts) > 50 and white < 0.97 * width * height,
          f"the screenshot is not blank: {len(counts)} colours, {100 * white / (width * height):.1f}% white")
    wanted = {tuple(int(c[1]["fill"][i:i + 2], 16) for i in (1, 3, 5)) for c in partial}
    seen = {colour: counts[colour] for colour in wanted if counts.get(colour, 0) >= 100}
    check(len(seen) >= max(1, len(wanted) // 2),
          f"the partially active cells' colours are on screen: {len(seen)} of {len(wanted)} at 100+ pixels each")
    full = (0x1a, 0x98, 0x50)
    check(counts.get(full, 0) > 100 * len(steps), f"the 100% colour fills the converged cells: {counts.get(full, 0)} pixels")

    return end()


if __name__ == "__main__":
    sys.exit(main())
