#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The report's index.html as a person sees it: drawn from the fixture runs, rendered in headless Chromium,
every <img> of the page must have loaded (naturalWidth > 0), and the screenshot of its top must not be
blank. The check must be able to fail: with one figure removed, exactly that image is reported broken.
Skips (77) without matplotlib or Chromium (`./amp test` installs Debian's chromium).

Usage: test_report_page.py CHROMIUM WORK_DIR FIXTURE_DIR...   (drawn as one; the screenshot: WORK_DIR/page.png)
"""
import html.parser
import os
import shutil
import subprocess
import sys

try:
    import matplotlib.image
except ImportError:
    print("SKIP: matplotlib is not installed for this python (the amp driver installs python3-matplotlib)")
    sys.exit(77)

chromium, work, fixtures = sys.argv[1], sys.argv[2], sys.argv[3:]
if not (os.path.isfile(chromium) and os.access(chromium, os.X_OK)):
    print(f"SKIP: no Chromium ('{chromium}'); `./amp test` installs Debian's chromium")
    sys.exit(77)
from amp_tools import report  # noqa: E402

# Written into the page's own DOM once every image has loaded or failed (the window's load event), for
# --dump-dom to print: one line per <img>, "ok SRC" or "broken SRC".
PROBE = """<script>
window.addEventListener("load", () => {
  const lines = [...document.images].map(
    i => (i.complete && i.naturalWidth > 0 ? "ok " : "broken ") + i.getAttribute("src"));
  const out = document.createElement("pre");
  out.id = "amp-image-check";
  out.textContent = lines.join("\\n");
  document.body.appendChild(out);
});
</script>"""

failures = []


def check(ok, message):
    print(f"{'ok  ' if ok else 'FAIL'} {message}")
    if not ok:
        failures.append(message)


def browse(*flags, page):
    """Chromium headless on the page (a file beside the figures, so their relative paths hold)."""
    command = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
               "--hide-scrollbars", f"--user-data-dir={os.path.join(work, 'chromium-profile')}",
               "--virtual-time-budget=10000", *flags, "file://" + os.path.abspath(page)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=90)
    if done.returncode != 0:
        print(f"FAIL chromium exited {done.returncode}: {done.stderr.strip()[-2000:]}")
        sys.exit(1)
    return done.stdout


class ImageCheck(html.parser.HTMLParser):
    """The text of <pre id="amp-image-check"> in a dumped DOM, and the src of every <img> of a page."""

    def __init__(self, text):
        super().__init__()
        self.inside, self.lines, self.sources = False, None, []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "pre" and attrs.get("id") == "amp-image-check":
            self.inside, self.lines = True, ""
        if tag == "img":
            self.sources.append(attrs.get("src"))

    def handle_endtag(self, tag):
        if tag == "pre":
            self.inside = False

    def handle_data(self, data):
        if self.inside:
            self.lines += data


def images_seen(report_dir):
    """{src: 'ok' or 'broken'} of every <img> of index.html, as Chromium loaded them."""
    index = os.path.join(report_dir, "index.html")
    probed = os.path.join(report_dir, "index-probed.html")
    with open(index) as f:
        page = f.read()
    with open(probed, "w") as f:
        f.write(page.replace("</body>", PROBE + "</body>"))
    lines = ImageCheck(browse("--dump-dom", page=probed)).lines
    if lines is None:
        print("FAIL the page's load event never came (no #amp-image-check in the DOM)")
        sys.exit(1)
    return dict(reversed(line.split(" ", 1)) for line in lines.splitlines())


shutil.rmtree(work, ignore_errors=True)
for folder in fixtures:
    shutil.copytree(folder, work, dirs_exist_ok=True)
names, _ = report.report(work)
report_dir = os.path.join(work, "report")
with open(os.path.join(report_dir, "index.html")) as f:
    sources = ImageCheck(f.read()).sources

seen = images_seen(report_dir)
check(sorted(seen) == sorted(sources) == sorted(names),
      f"Chromium saw the page's {len(sources)} images, one per figure")
check(seen and all(state == "ok" for state in seen.values()),
      f"every image loaded: {sorted(src for src, state in seen.items() if state != 'ok') or 'all'}")

shot = os.path.join(work, "page.png")
browse(f"--screenshot={shot}", "--window-size=1300,1800", page=os.path.join(report_dir, "index.html"))
pixels = matplotlib.image.imread(shot)[:, :, :3] if os.path.exists(shot) else None
non_white = float((pixels < 0.95).any(axis=2).mean()) if pixels is not None else 0.0
check(non_white > 0.05, f"the screenshot of the page's top ({shot}) is {non_white:.1%} not white")

# The check itself: a figure gone from the folder is an image Chromium reports broken.
gone = sorted(names)[0]
os.remove(os.path.join(report_dir, gone))
seen = images_seen(report_dir)
check([src for src, state in seen.items() if state != "ok"] == [gone],
      f"with {gone} removed, exactly it is reported broken: {seen}")

print(f"{'FAILED' if failures else 'PASSED'}: the report's page in Chromium")
sys.exit(1 if failures else 0)
