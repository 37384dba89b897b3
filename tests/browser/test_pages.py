"""The browsable report in a real browser (Debian's headless Chromium), as a person sees it.

qicc batch --html writes the pages of four shared tasks: a FALSE, a TRUE proven with loop
invariants, a TRUE proven by a region run, an UNKNOWN (the time limit). Each page is checked
three ways: html5lib parses it strictly (no HTML error), Chromium renders it (--dump-dom: the
DOM after the page's script ran) and the DOM holds what the page is for, and Chromium's
screenshot of it is not blank. The pages fetch nothing: each records how many resources it
loaded (performance entries) and the check wants 0.

Run: QICC=target/release/qicc python3 -m unittest tests/browser/test_pages.py
(CHROMIUM names the browser binary, default `chromium`; SHARED the shared data directory.)
"""

import os
import re
import shutil
import sys
import subprocess
import tempfile
import unittest
from pathlib import Path

import html5lib
from PIL import Image

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))
from html_open import chromium  # noqa: E402  (one runner of the browser)

QICC = Path(os.environ.get("QICC", ROOT / "target/release/qicc"))
CHROMIUM = os.environ.get("CHROMIUM", "chromium")  # as bench/html_open.py's chromium()
SHARED = Path(os.environ.get("SHARED", ROOT.parent / "shared"))
TASKS = SHARED / "benchmarks/sv-comp/c"

# name -> the shared task whose page is checked
CASES = {
    "false": "loop-acceleration/const_1-2.yml",
    "invariants": "loop-lit/hhk2008.yml",
    "region": "loop-simple/nested_1.yml",
    # Undefined behaviour reachable: UNKNOWN with the replayed trace that reaches it.
    "unknown": "loops/verisec_NetBSD-libc_loop.yml",
}


def dom(path, fragment=""):
    # --virtual-time-budget lets the page's script run before the DOM is dumped.
    return chromium("--virtual-time-budget=3000", "--dump-dom", path.as_uri() + fragment)


def not_blank(png):
    im = Image.open(png).convert("RGB")
    colours = im.getcolors(maxcolors=1 << 20) or []
    white = sum(n for n, c in colours if c == (255, 255, 255))
    return len(colours) > 20 and white < 0.98 * im.width * im.height


# CI sets QICC_REQUIRE_BROWSER=1: there a missing browser or task set fails instead of skipping.
REQUIRED = os.environ.get("QICC_REQUIRE_BROWSER") == "1"


@unittest.skipUnless(REQUIRED or TASKS.is_dir(), "the shared tasks are missing")
@unittest.skipUnless(REQUIRED or shutil.which(CHROMIUM), "Chromium is not installed")
class BrowsableReport(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = Path(tempfile.mkdtemp(prefix="qicc-html-"))
        cls.out = cls.tmp / "batch"
        tasks = [str(TASKS / t) for t in CASES.values()]
        run = subprocess.run([str(QICC), "batch", "--jobs", "1", "--timeout", "20", "--html",
                              "--progress", "none", "-o", str(cls.out), *tasks],
                             capture_output=True, text=True, timeout=300)
        assert run.returncode == 0, run.stderr
        cls.site = cls.out / "html"
        index = (cls.site / "index.html").read_text()
        cls.pages = {}
        for name, task in CASES.items():
            m = re.search(r'href="(tasks/[^"]*%s[^"]*)"' % re.escape(Path(task).stem), index)
            assert m, f"no page for {task}"
            cls.pages[name] = cls.site / m.group(1)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def rendered(self, name, fragment=""):
        d = dom(self.pages[name] if name != "index" else self.site / "index.html", fragment)
        self.assertTrue("data-loaded-ms" in d, f"{name}: the page's script did not run")
        self.assertTrue('data-fetched="0"' in d, f"{name}: the page fetched something")
        return html5lib.parse(d, namespaceHTMLElements=False)

    def test_pages_are_valid_html(self):
        for path in [self.site / "index.html", *self.pages.values()]:
            parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False)
            parser.parse(path.read_bytes())
            self.assertEqual(parser.errors, [], path)

    def test_false_page_marks_the_violation_and_lists_the_trace(self):
        doc = self.rendered("false")
        self.assertEqual(doc.find("body").get("data-verdict"), "false")
        violated = doc.findall(".//tr[@class]")
        marked = [tr for tr in violated if "violated-line" in tr.get("class")]
        self.assertEqual(len(marked), 1, "one source line holds the violated assertion")
        self.assertIn("violated", "".join(marked[0].itertext()))
        steps = doc.findall(".//table[@class='trace']/tbody/tr")
        self.assertGreater(len(steps), 2)
        self.assertEqual(steps[-1].get("class"), "step k-error")
        # Every step links to a line of the source shown on the page.
        ids = {tr.get("id") for tr in doc.findall(".//table[@class='source']/tbody/tr")}
        for tr in steps:
            link = tr.find(".//a[@class='loc']")
            self.assertIsNotNone(link)
            self.assertIn(link.get("href")[1:], ids)

    def test_true_page_shows_invariants_at_their_loop(self):
        doc = self.rendered("invariants")
        self.assertEqual(doc.find("body").get("data-verdict"), "true")
        proofs = doc.findall(".//tr[@class='proof']")
        self.assertTrue(proofs)
        self.assertEqual(proofs[0].get("data-argument"), "loop_invariants")
        rows = doc.findall(".//tr[@class='inv-row']")
        self.assertTrue(any("loop invariant" in "".join(r.itertext()) for r in rows))

    def test_region_proof_and_the_tree_picture(self):
        doc = self.rendered("region")
        proofs = doc.findall(".//tr[@class='proof']")
        self.assertTrue(proofs)
        self.assertEqual(proofs[0].get("data-argument"), "region")
        svg = [e for e in doc.iter() if isinstance(e.tag, str) and e.tag.endswith("svg")]
        self.assertEqual(len(svg), 1, "the Region Nesting Tree picture")
        nodes = [g for g in svg[0].iter() if "rnt-node" in (g.get("class") or "")]
        text = (self.pages["region"]).read_text()
        # One node per RNT node the report lists (the JSON's regions; its size is stated).
        m = re.search(r"\((\d+) nodes", text)
        self.assertIsNotNone(m)
        self.assertEqual(len(nodes), int(m.group(1)))
        self.assertTrue(any("o-proved" in g.get("class") for g in nodes))

    def test_unknown_page_says_why(self):
        doc = self.rendered("unknown")
        self.assertEqual(doc.find("body").get("data-verdict"), "unknown")
        summary = "".join(doc.find(".//section[@id='summary']").itertext())
        self.assertIn("undefined behaviour reachable", summary)
        # The replayed trace that reaches the check, ending at it.
        steps = doc.findall(".//table[@class='trace']/tbody/tr")
        self.assertGreater(len(steps), 1)

    def test_index_sorts_by_time(self):
        doc = self.rendered("index", "#sort=-time")
        table = doc.find(".//table[@id='tasks']")
        self.assertEqual(table.get("data-sorted"), "time:desc")
        times = [float(tr.findall("td")[5].get("data-v")) for tr in table.find("tbody")]
        self.assertEqual(len(times), len(CASES))
        self.assertEqual(times, sorted(times, reverse=True))
        self.assertTrue(any("UNKNOWN" in "".join(tr.itertext()) for tr in table.find("tbody")))

    def test_screenshots_are_not_blank(self):
        for name in ["false", "invariants", "index"]:
            png = self.tmp / f"{name}.png"
            path = self.site / "index.html" if name == "index" else self.pages[name]
            chromium("--window-size=1280,1000", f"--screenshot={png}", path.as_uri())
            self.assertTrue(png.is_file(), name)
            self.assertTrue(not_blank(png), f"the screenshot of {name} is blank")


if __name__ == "__main__":
    unittest.main()
