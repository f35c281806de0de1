// report.html from a Report built in memory: escaping, nothing external, the
// divergence map's cells and colours, the findings' links to source lines,
// the timing chart or the reason there is none.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "grader/outputs/report_html.hpp"

using namespace grader;
using harness::DivergenceCell;
using harness::KernelDivergence;

namespace {

std::size_t count(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

// A kernel of 2 warps over 2 steps; cells are (lane visits, warp visits, divergent blocks).
KernelDivergence launch(const std::string& kernel, std::vector<std::vector<DivergenceCell>> cells) {
    return {kernel, 1, static_cast<unsigned>(cells[0].size()), std::move(cells), {"report", {}, ""}};
}

// A finding as compute-sanitizer's parser makes it.
Finding sanitized(const std::string& kind, const std::string& check, const std::string& kernel,
                  const std::string& message, std::vector<std::string> lines) {
    Finding f;
    f.source = finding::Source::Sanitizer;
    f.tool = "memcheck";
    f.kind = kind;
    f.check = check;
    f.kernel = kernel;
    f.message = message;
    f.lines = std::move(lines);
    return f;
}

// Lab 02 with a race at scan.cu:24, a partial divergence map, and GPU timing.
Report sample() {
    Report r;
    r.submission = "<script>alert(\"x\")</script> & co";
    r.backend = "emu+cuda";
    r.device = "NVIDIA H100 80GB HBM3";
    r.sandboxed = true;
    LabResult& lab = r.labs.emplace_back();
    lab.lab = "02-brent-kung";
    lab.submitted = lab.built = true;
    lab.components = {{"correctness", 60, 60, true, ""},
                      {"safety", 15, 20, true, ""},
                      {"divergence", 5, 10, true, ""},
                      {"timing", 2.5, 10, true, ""}};
    lab.tests = {{"lab02 correctness: section", lab.lab, "correctness", 60, 60, Status::Passed, false, "ok    walk4", 0},
                 {"lab02 safety", lab.lab, "safety", 15, 20, Status::Failed, false, "FAIL  race at <b>scan.cu:24</b>", 0},
                 {"lab02 correctness: hidden", lab.lab, "correctness", 0, 0, Status::Passed, true, "secret n=3001", 0}};
    for (int i = 1; i <= 30; ++i) lab.source += i == 24 ? "    if (a < b && c > d) section[t] += section[t - 1];\n" : "// line\n";
    lab.findings = {sanitized("race", "data race on shared memory", "k", "a read at scan.cu:24 and a write at scan.cu:24",
                              {"scan.cu:24"}),
                    sanitized("memory", "out-of-bounds read", "", "thread 3 read past the end at scan.cu:999 (myscan.cu:3)",
                              {"scan.cu:999", "myscan.cu:3"})};
    // Mine: 100% and 50% in step 0, warp 0 not run and 75% (diverged) in step 1: 144 / (32 x 6) = 75%.
    lab.divergence.push_back({"brent_kung_scan", "walk4 n=8192 seed=4343",
                              {launch("bk_kernel", {{{64, 2, 0}, {32, 2, 1}}, {{0, 0, 0}, {48, 2, 1}}})},
                              {launch("bk_kernel", {{{64, 2, 0}, {64, 2, 0}}})}, ""});
    Timed t;
    t.median = 2.573, t.p10 = 2.55, t.p90 = 2.6, t.ci_low = 2.566, t.ci_high = 2.58;
    t.mine_ms = 0.2938, t.ref_ms = 0.1141, t.cub_ms = 0.0521, t.rounds = 87;
    lab.timing.push_back({"brent_kung_scan", "walk4 n=16777216 seed=4444", t});
    return r;
}

}  // namespace

TEST_CASE("the colour scale: its stops, a blend between two, and out-of-range fractions clamped") {
    CHECK(active_colour(1.0) == "#1a9850");
    CHECK(active_colour(0.9) == "#a6d96a");
    CHECK(active_colour(0.75) == "#fee08b");
    CHECK(active_colour(0.5) == "#f46d43");
    CHECK(active_colour(0.0) == "#a50026");
    CHECK(active_colour(0.25) == "#cd3735");  // halfway from #a50026 to #f46d43, rounded
    CHECK(active_colour(1.5) == "#1a9850");
    CHECK(active_colour(-1) == "#a50026");
    CHECK(active_colour(std::nan("")) == "#a50026");
}

TEST_CASE("everything from the submission is escaped, and nothing is fetched") {
    const std::string html = report_html(sample());
    CHECK(html.rfind("<!DOCTYPE html>", 0) == 0);
    CHECK(html.find("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; co") != std::string::npos);
    CHECK(html.find("if (a &lt; b &amp;&amp; c &gt; d)") != std::string::npos);
    CHECK(html.find("FAIL  race at &lt;b&gt;scan.cu:24&lt;/b&gt;") != std::string::npos);
    for (const char* external : {"<script", "http://", "https://", "src=", "<link", "url(", "@import", "<img", "<iframe"})
        CHECK_MESSAGE(html.find(external) == std::string::npos, external);
    CHECK(html.find("Content-Security-Policy\" content=\"default-src 'none'") != std::string::npos);
    // A hidden dataset's output is withheld, as in summary.md.
    CHECK(html.find("secret n=3001") == std::string::npos);
    CHECK(html.find("Hidden dataset: output shown after grades are published.") != std::string::npos);
}

// sample() with what the stub of lab 01 gave on three datasets: one wrong
// result's hint on each, and one race in 1, 2 and 5 blocks.
Report repeated() {
    Report r = sample();
    LabResult& lab = r.labs[0];
    const std::string hint = "  hint: values differ inside the section: check each step's index arithmetic";
    lab.tests[0] = {"lab02 correctness: section", lab.lab, "correctness", 0, 60, Status::Failed, false,
                    "FAIL  walk4 n=1023\n" + hint + "\nFAIL  walk4 n=1024\n" + hint + "\nFAIL  walk1 n=4097\n" + hint + "\n", 0};
    const Finding race = lab.findings[0];
    for (unsigned long long blocks : {2, 5}) {
        lab.findings.push_back(race);
        lab.findings.back().message = "a read at scan.cu:24 and a write at scan.cu:24 in block (" + std::to_string(blocks) + ",0,0)";
        lab.findings.back().reports = blocks;
    }
    lab.findings[0].reports = 1;
    using harness::Severity;
    lab.fix_first = {{Severity::UndefinedBehaviour, "finding|race", "data race on shared memory in kernel k at scan.cu:24",
                      "brent_kung_scan on walk4 n=1023", 3, "", 1},
                     {Severity::WrongResult, "outputs_match", "brent_kung_scan computes wrong values; hint: values differ "
                      "inside the section: check each step's index arithmetic", "brent_kung_scan on walk4 n=1023", 3, "", 1}};
    return r;
}

TEST_CASE("the page opens on what to fix first, then the source and its findings; the tests folded") {
    const std::string html = report_html(repeated());
    const std::size_t fix = html.find("<section class=\"fix-first\""), source = html.find("<section class=\"source\""),
                      tests = html.find("<section class=\"tests\""), maps = html.find("<section class=\"divergence\"");
    REQUIRE(fix != std::string::npos);
    CHECK(fix < html.find("<table class=\"scores\""));
    CHECK(fix < source);
    CHECK(source < tests);
    CHECK(tests < maps);
    // The suites' list (triage.hpp), in its order, each with where it was first seen and on how many datasets.
    CHECK(html.find("<li class=\"undefined-behaviour\"><b>undefined behaviour</b>: data race on shared memory in kernel k "
                    "at <a href=\"#lab-02-brent-kung-L24\">scan.cu:24</a> <span class=\"seen\">first seen: brent_kung_scan on walk4 n=1023; same on 2 more "
                    "datasets</span></li>") != std::string::npos);
    CHECK(html.find("wrong result</b>: brent_kung_scan computes wrong values") > html.find("undefined behaviour</b>: data race"));
    CHECK(html.find("<details class=\"test") != std::string::npos);
    CHECK(html.find(" open>") == std::string::npos);  // every per-dataset detail folded
    // Each hint once on the page: in what to fix first, not again per dataset.
    CHECK(count(html, "hint: values differ inside the section") == 1);
    CHECK(count(html, "FAIL  walk") == 3);
    // A lab with nothing to fix says so.
    Report clean = sample();
    clean.labs[0].fix_first.clear();
    CHECK(report_html(clean).find("Nothing to fix: every dataset came out right.") != std::string::npos);
}

TEST_CASE("each finding once, with the sizes it showed at") {
    const std::string html = report_html(repeated());
    CHECK(count(html, "<li class=\"finding\"") == 2);  // the race (3 times) and the out-of-bounds read
    CHECK(html.find("<span class=\"sizes\">seen at: 1 report, 2 reports, 5 reports</span>") != std::string::npos);
    CHECK(count(html, "<a href=\"#lab-02-brent-kung-f1\"") == 1);  // one mark on line 24
}

TEST_CASE("header, score table, and the failed test first") {
    const std::string html = report_html(sample());
    CHECK(html.find("<dt>device</dt><dd>NVIDIA H100 80GB HBM3</dd>") != std::string::npos);
    CHECK(html.find("<dt>backends</dt><dd>emu+cuda</dd>") != std::string::npos);
    CHECK(html.find("<dt>sandbox</dt><dd>bubblewrap</dd>") != std::string::npos);
    CHECK(html.find("Total 82.5/100 (82.5%)") != std::string::npos);
    CHECK(html.find("<td class=\"partial\">15/20</td>") != std::string::npos);
    CHECK(html.find("<td class=\"full\">60/60</td>") != std::string::npos);
    const std::size_t safety = html.find("lab02 safety"), section = html.find("lab02 correctness: section");
    REQUIRE(safety != std::string::npos);
    CHECK(safety < section);
    CHECK(html.find("<details class=\"test failed\"><summary><span class=\"badge failed\">failed</span> lab02 safety") !=
          std::string::npos);
    CHECK(html.find("<details class=\"test passed\"><summary>") != std::string::npos);
}

TEST_CASE("the divergence maps: one cell per warp and step, coloured by its active fraction") {
    const std::string html = report_html(sample());
    CHECK(count(html, "<svg class=\"divmap\"") == 2);
    CHECK(count(html, "<rect class=\"cell\"") == 6);  // mine 2 x 2, the reference's 1 x 2
    CHECK(html.find("fill=\"#1a9850\" data-step=\"0\" data-warp=\"0\" data-fraction=\"1.0000\"") != std::string::npos);
    CHECK(html.find("fill=\"#f46d43\" data-step=\"0\" data-warp=\"1\" data-fraction=\"0.5000\"") != std::string::npos);
    CHECK(html.find("fill=\"#d9d9d9\" data-step=\"1\" data-warp=\"0\" data-fraction=\"\"") != std::string::npos);
    CHECK(html.find("fill=\"#fee08b\" data-step=\"1\" data-warp=\"1\" data-fraction=\"0.7500\"") != std::string::npos);
    CHECK(count(html, "<circle class=\"diverged\"") == 2 + 1);  // two cells, and the legend's
    CHECK(html.find("Yours: SIMT efficiency 75.0%") != std::string::npos);
    CHECK(html.find("Reference: SIMT efficiency 100.0%") != std::string::npos);
    CHECK(html.find("brent_kung_scan on walk4 n=8192 seed=4343") != std::string::npos);
}

TEST_CASE("a kernel launched twice is one map, its launches summed cell by cell") {
    Report r = sample();
    r.labs[0].divergence[0].mine = {launch("bk_kernel", {{{32, 1, 0}, {64, 2, 0}}}),
                                    launch("bk_kernel", {{{0, 1, 1}, {64, 2, 0}}, {{32, 1, 0}, {32, 1, 0}}})};
    const std::string html = report_html(r);
    CHECK(count(html, "<svg class=\"divmap\"") == 2);
    CHECK(html.find("bk_kernel: 2 block(s) of 2 warp(s), 2 steps") != std::string::npos);
    CHECK(html.find("data-step=\"0\" data-warp=\"0\" data-fraction=\"0.5000\"") != std::string::npos);  // 32 / (32 x 2)
    CHECK(html.find("data-step=\"1\" data-warp=\"1\" data-fraction=\"1.0000\"") != std::string::npos);
    // A barrier in a long loop: the first 128 steps drawn, and a line saying so.
    r.labs[0].divergence[0].mine = {launch("loop_kernel", std::vector<std::vector<DivergenceCell>>(1000, {{32, 1, 0}, {32, 1, 0}}))};
    const std::string capped = report_html(r);
    CHECK(count(capped, "<rect class=\"cell\"") == 128 * 2 + 2);
    CHECK(capped.find("loop_kernel: 1 block(s) of 2 warp(s), 1000 steps") != std::string::npos);
    CHECK(capped.find("Drawn: the first 128 of 1000 steps, 2 of 2 warps.") != std::string::npos);
    r.labs[0].divergence[0].mine.clear();  // the student's run failed
    CHECK(report_html(r).find("Yours: no map (the run gave no valid result)") != std::string::npos);
}

TEST_CASE("findings link to the source lines they name, and the lines link back") {
    const std::string html = report_html(sample());
    const std::string id = "lab-02-brent-kung";
    CHECK(count(html, "<a href=\"#" + id + "-L24\">scan.cu:24</a>") == 2);
    CHECK(html.find("<li class=\"finding\" id=\"" + id + "-f1\"><span class=\"cat\">race</span>") != std::string::npos);
    CHECK(html.find("<tr id=\"" + id + "-L24\" class=\"hit\"><td class=\"ln\">24</td>") != std::string::npos);
    CHECK(html.find("<a href=\"#" + id + "-f1\" title=\"data race on shared memory") != std::string::npos);
    CHECK(count(html, "class=\"hit\"") == 1);
    // A line past the file's end, and another file's line, are no links.
    CHECK(html.find("read past the end at scan.cu:999 (myscan.cu:3)") != std::string::npos);
    CHECK(html.find(id + "-L999") == std::string::npos);
    CHECK(html.find("<tr id=\"" + id + "-L3\">") != std::string::npos);
    CHECK(count(html, "<tr id=\"" + id + "-L") == 30);
}

TEST_CASE("timing: a chart of yours, the reference's and CUB's time, or why there is none") {
    Report r = sample();
    std::string html = report_html(r);
    CHECK(count(html, "<svg class=\"timing\"") == 1);
    CHECK(count(html, "<rect class=\"bar ") == 3);
    CHECK(html.find("0.2938 ms") != std::string::npos);
    CHECK(html.find("0.0521 ms") != std::string::npos);
    CHECK(html.find("<b>2.573x</b> the reference's time (median of 87 alternated rounds; 95% confidence interval of the "
                    "median 2.566x to 2.580x") != std::string::npos);
    r.labs[0].timing[0].timed.cub_ms = 0;  // CUB not timed: two bars
    CHECK(count(report_html(r), "<rect class=\"bar ") == 2);

    r.labs[0].timing.clear();
    r.labs[0].components[3] = {"timing", 0, 10, false, "not gradable here: no GPU: nvidia-smi -L lists none"};
    html = report_html(r);
    CHECK(html.find("<svg class=\"timing\"") == std::string::npos);
    CHECK(html.find("Timing was not gradable here: no GPU: nvidia-smi -L lists none") != std::string::npos);
}

TEST_CASE("the timing chart of a real H100 run (scan-bench's JSON, tests/timing/)") {
    Report r = sample();
    r.labs[0].timing = {{"brent_kung_scan", "walk4 n=16777216 seed=4444", read_timing(FIXTURES "/lab02-modulo-h100.json")}};
    const std::string html = report_html(r);
    for (const char* bar : {">yours</text><rect class=\"bar mine\"", ">reference</text><rect class=\"bar reference\"",
                            ">CUB</text><rect class=\"bar cub\""})
        CHECK_MESSAGE(html.find(bar) != std::string::npos, bar);
    // The longest bar (yours) spans the chart; the others in proportion: 360 x 0.11504 / 0.29606 = 140.
    CHECK(html.find("class=\"bar mine\" x=\"80\" y=\"4\" width=\"360\"") != std::string::npos);
    CHECK(html.find("class=\"bar reference\" x=\"80\" y=\"28\" width=\"140\"") != std::string::npos);
    CHECK(html.find("0.2961 ms") != std::string::npos);
    CHECK(html.find("0.1150 ms") != std::string::npos);
    CHECK(html.find("0.0637 ms") != std::string::npos);
    CHECK(html.find("<b>2.574x</b> the reference's time (median of 315 alternated rounds; 95% confidence interval of "
                    "the median 2.572x to 2.575x; p10 to p90 2.562x to 2.583x); 4.65x CUB's.") != std::string::npos);
}

TEST_CASE("a lab that did not build shows its tests, and no pictures") {
    Report r = sample();
    r.labs[0].built = false;
    r.labs[0].source.clear();
    const std::string html = report_html(r);
    CHECK(html.find("lab02 safety") != std::string::npos);
    CHECK(html.find("<svg class=\"divmap\"") == std::string::npos);
    CHECK(html.find("<section class=\"source\">") == std::string::npos);
}
