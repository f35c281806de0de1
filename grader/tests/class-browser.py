#!/usr/bin/env python3
"""class-browser.py TEST_CLASS_REPORT OUT: class.html as a browser shows it.

test-class-report's case "similarity: the planted copies ..." writes the
class report of tests/similarity/ (six honest students, two planted copies;
its README) into OUT; headless Chromium renders it at a phone's width (390
px) and a laptop's (1366 px). The rendered DOM must hold the page's
sections in order, the flagged entries with the four students of the two
copies, and per lab a table of pairs whose first two rows are the copies,
flagged, with their shared lines marked side by side; each screenshot must
be the window's size and not blank, the laptop's showing the marked lines' colour.
The screenshots stay in OUT for a person to look at. TAP on standard
output (tap.py); skipped where Chromium or copydetect is missing.
"""

import os
import shutil
import subprocess
import sys
import tempfile

from browser import Dom, chromium, png_pixels
from tap import end, expect as check, note, skip_all

CASE = "similarity: the planted copies*"
WIDTHS = {"phone": (390, 2400), "laptop": (1366, 3200)}  # the laptop's tall enough for the first pair's lines
COPIES = [{"cai", "gil"}, {"eun", "hal"}]
MARK = (0xff, 0xe0, 0x8a)  # class_html.cpp's mark{background}


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: class-browser.py TEST_CLASS_REPORT OUT")
    test, out = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    if not binary:
        skip_all("chromium not found: neither chromium nor chromium-browser is on PATH "
                 "(apt-get install chromium to render class.html)")
    os.makedirs(out, exist_ok=True)
    made = subprocess.run([test, f"--test-case={CASE}"], cwd=out, capture_output=True, text=True, timeout=300)
    page = os.path.join(out, "class-report-similarity", "class.html")
    if not check(made.returncode == 0 and os.path.isfile(page), "test-class-report wrote the planted class's class.html"):
        note(made.stdout[-3000:] + made.stderr[-3000:])
        return end()
    if "the similarity check is off here" in made.stdout:
        skip_all("copydetect is not installed for python3 (python3 -m pip install copydetect): "
                 "class.html has no pairs to show")

    with tempfile.TemporaryDirectory(prefix="class-browser-") as profile:
        url = "file://" + page
        dumped = chromium(binary, profile, "--dump-dom", url)
        check(dumped.returncode == 0 and "</html>" in dumped.stdout, f"chromium --dump-dom rendered the page (exit {dumped.returncode})")
        shots = {}
        for name, (width, height) in WIDTHS.items():
            shot = os.path.join(out, f"class-{name}.png")
            done = chromium(binary, profile, f"--screenshot={shot}", f"--window-size={width},{height}", url)
            if check(done.returncode == 0 and os.path.isfile(shot), f"chromium --screenshot at {width} px wrote a PNG"):
                shots[name] = png_pixels(shot)

    dom = Dom()
    dom.feed(dumped.stdout)
    headings = [e[2].strip() for e in dom.find("h2")]
    check(headings == ["Scores per lab and component", "Datasets passed, worst first", "Most common findings",
                       "Timing: the time over the reference's", "Divergence: SIMT efficiency against the reference's",
                       "Flagged", "Code alike"], f"the sections in order: {headings}")
    flagged = [e for e in dom.find("table") if "why" in e[2] and "code alike in lab" in e[2]]
    named = {a[2] for a in dom.find("a") if a[1].get("href", "").endswith("/report.html") and flagged and a[2] in flagged[0][2]}
    check(len(flagged) == 1 and named == {"cai", "eun", "gil", "hal"} and not any(s in flagged[0][2] for s in ("ada", "bea", "dev", "fin")),
          f"the flagged entries are the copies' four students, each linked to its report: {sorted(named)}")
    labs = [e[2].strip() for e in dom.find("h3")]
    check(labs == ["Lab 03-exclusive: 2 flagged", "Lab 04-hierarchical: 2 flagged"], f"a heading per lab: {labs}")
    tables = [e for e in dom.find("table") if "tokens shared" in e[2]]
    rows = [e for e in dom.find("tr") if e[1].get("class") == "bad" and " and " in e[2] and "flagged" in e[2]]
    check(len(tables) == 2 and len(rows) == 4, f"two tables of pairs, four rows flagged: {len(tables)}, {len(rows)}")
    for table in tables:
        pairs = [set(p.split(" and ")) for p in
                 (a[2] for a in dom.find("a") if a[1].get("href", "").startswith("#similar-") and a[2] in table[2])][:2]
        check(all(p in COPIES for p in pairs) and len(pairs) == 2, f"a lab's two most alike pairs are the copies: {pairs}")
    details = dom.find("details")
    marked = [d for d in details if any(m[2] and m[2] in d[2] for m in dom.find("mark"))]
    check(len(details) >= 4 and len(marked) == len(details) and "open" in details[0][1],
          f"each pair's shared lines side by side, marked: {len(marked)} of {len(details)} pairs, the first open")
    page_text = open(page, encoding="utf-8").read()
    check("<script" not in page_text and "http://" not in page_text and "https://" not in page_text,
          "class.html references nothing outside itself")

    for name, (width, height, rows) in shots.items():
        counts = {}
        for row in rows:
            for pixel in row:
                counts[pixel] = counts.get(pixel, 0) + 1
        white = counts.get((255, 255, 255), 0)
        check((width, height) == WIDTHS[name], f"the {name} screenshot is {WIDTHS[name]}: {(width, height)}")
        check(len(counts) > 20 and white < 0.97 * width * height,
              f"the {name} screenshot is not blank: {len(counts)} colours, {100 * white / (width * height):.1f}% white")
        if name == "laptop":
            check(counts.get(MARK, 0) > 2000, f"the shared lines' mark colour on the laptop's screen: {counts.get(MARK, 0)} pixels")
    return end()


if __name__ == "__main__":
    sys.exit(main())
