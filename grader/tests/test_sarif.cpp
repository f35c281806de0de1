// results.sarif (sarif.cpp) of the sample report with findings: where each
// finding points, its level, the order, one result per distinct finding (a
// check at a line), a rule per check. Its golden file is test_outputs.cpp's; check_sarif.py
// holds that file to the SARIF 2.1.0 and GitHub schemas.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <set>

#include "grader/outputs/distinct_findings.hpp"
#include "grader/outputs/outputs.hpp"
#include "grader/tests/findings_sample.hpp"

using namespace grader;
using namespace grader::testing;
using nlohmann::json;

namespace {

json run_of(const Report& r) {
    const json j = json::parse(sarif_json(r));
    REQUIRE(j.at("runs").size() == 1);
    return j["runs"][0];
}

std::string uri(const json& location) { return location.at("physicalLocation").at("artifactLocation").at("uri"); }
unsigned line(const json& location) { return location.at("physicalLocation").value("region", json::object()).value("startLine", 0u); }

}  // namespace

TEST_CASE("SARIF: each finding at its lab's file and line, its other places related") {
    const json run = run_of(findings_sample());
    CHECK(run.at("tool").at("driver").at("name") == "scan-grade");
    const json& results = run.at("results");
    // 13 findings, two of them one race at one line.
    REQUIRE(results.size() == 12);
    const auto race02 = std::find_if(results.begin(), results.end(), [](const json& r) {
        return r["properties"]["lab"] == "02-brent-kung" && r["ruleId"] == "race/data-race-on-shared-memory" &&
               r["locations"][0].contains("physicalLocation") && line(r["locations"][0]) == 25;
    });
    REQUIRE(race02 != results.end());
    const json& r = *race02;
    CHECK(r.at("level") == "error");
    CHECK(uri(r["locations"][0]) == "labs/02-brent-kung/scan.cu");
    CHECK(r["locations"][0]["physicalLocation"]["artifactLocation"]["uriBaseId"] == "%SRCROOT%");
    CHECK(r.at("message").at("text") ==
          finding::sentence(findings_sample().labs[1].findings[1]));  // the words people read elsewhere
    // The line's text (region.snippet, SARIF 3.30.13), by which the class report groups findings; its launch's too.
    CHECK(r["locations"][0]["physicalLocation"]["region"]["snippet"]["text"] ==
          "            section[index] += section[index - stride];");
    REQUIRE(r.at("relatedLocations").size() == 1);
    CHECK(r["relatedLocations"][0]["physicalLocation"]["region"]["snippet"]["text"] == "// line 35");
    CHECK(line(r["relatedLocations"][0]) == 35);
    CHECK(r["relatedLocations"][0]["message"]["text"] == "the kernel was launched here");

    // A header beside scan.cu: its own file; the finding's second line related.
    const auto header = std::find_if(results.begin(), results.end(), [](const json& x) {
        return uri(x["locations"][0]) == "labs/01-kogge-stone/scan_helpers.cuh";
    });
    REQUIRE(header != results.end());
    CHECK(line((*header)["locations"][0]) == 7);
    CHECK(!(*header)["locations"][0]["physicalLocation"]["region"].contains("snippet"));  // its text is not in the report
    REQUIRE((*header)["relatedLocations"].size() == 2);
    CHECK(line((*header)["relatedLocations"][0]) == 16);
    CHECK((*header)["relatedLocations"][1]["id"] == 2);
}

TEST_CASE("SARIF: one result per check and line, the first finding's, with its sizes; leaks told apart by their function") {
    Report r = findings_sample();
    std::size_t at21 = 0;
    const json run = run_of(r);
    for (const json& x : run["results"])
        if (uri(x["locations"][0]) == "labs/01-kogge-stone/scan.cu" && line(x["locations"][0]) == 21) {
            ++at21;
            // block (0,0,0)'s, not (3,0,0)'s, and the blocks each time showed it in
            CHECK(x["message"]["text"] == finding::sentence(r.labs[0].findings[7]) + "; seen at: 1 block, 5 blocks");
        }
    CHECK(at21 == 1);
    // Two leaks, of two functions, both of the file as a whole: two results.
    r.labs[1].findings.push_back(finding::leak(8192, 2, "brent_kung_scan_large"));
    CHECK(run_of(r)["results"].size() == 13);
    // A race at another line of the same check is another result.
    r.labs[1].findings.push_back(r.labs[1].findings[1]);
    r.labs[1].findings.back().lines = {"scan.cu:26"};
    CHECK(run_of(r)["results"].size() == 14);
}

TEST_CASE("SARIF: one leak on three datasets is one result; a finding that names no line is a file-level result") {
    const json run = run_of(findings_sample());
    std::vector<json> warnings, lineless;
    for (const json& r : run["results"]) {
        if (r["level"] == "warning") warnings.push_back(r);
        if (!r["locations"][0]["physicalLocation"].contains("region")) lineless.push_back(r);
    }
    // The sample's leak of brent_kung_scan, of 4096, 8192 and 16384 bytes: one bug.
    REQUIRE(warnings.size() == 1);
    CHECK(warnings[0]["ruleId"] == "leak/device-memory-leaked");
    CHECK(warnings[0]["message"]["text"] ==
          finding::sentence(findings_sample().labs[1].findings[0]) +
              "; seen at: 4096 bytes, 8192 bytes, 16384 bytes");
    // No line to point at: the file alone, as codeql-action's upload takes a
    // location (src/fingerprints.ts: "it can be absent if the alert pertains
    // to the entire file"), not a line 1 that the finding never named.
    REQUIRE(lineless.size() == 2);  // the leak and the hidden datasets' race
    for (const json& r : lineless) {
        CHECK(r["locations"][0]["physicalLocation"] ==
              json({{"artifactLocation", {{"uri", "labs/02-brent-kung/scan.cu"}, {"uriBaseId", "%SRCROOT%"}}}}));
        CHECK(r["locations"][0]["message"]["text"] == "scan.cu as a whole: this finding names no line");
    }
    CHECK(lineless[0]["ruleId"] == "race/race-finding-on-a-hidden-dataset");
    CHECK(lineless[0]["message"]["text"] ==
          "race finding on hidden dataset 2 of lab 02 (details shown after grades are published); seen at: "
          "hidden dataset 2 of lab 02, hidden dataset 3 of lab 02");
}

TEST_CASE("SARIF: a result per distinct finding, as report.html lists them") {
    const Report r = findings_sample();
    std::size_t distinct = 0;
    for (const LabResult& lab : r.labs) distinct += distinct_findings(lab.findings).size();
    CHECK(run_of(r)["results"].size() == distinct);
}

TEST_CASE("SARIF: the worst first, errors before warnings and undefined behaviour first") {
    const json run = run_of(findings_sample());
    std::vector<int> ranks;
    for (const json& r : run["results"])
        ranks.push_back(r["level"] == "warning" ? 2 : r["properties"]["undefinedBehavior"] == true ? 0 : 1);
    CHECK(std::is_sorted(ranks.begin(), ranks.end()));
    CHECK(std::count(ranks.begin(), ranks.end(), 0) == 6);
    CHECK(std::count(ranks.begin(), ranks.end(), 1) == 5);
    // Within a rank, the labs' order and each lab's: lab 01's barrier finding first.
    CHECK(run["results"][0]["properties"]["lab"] == "01-kogge-stone");
    CHECK(run["results"][0]["ruleId"] == "barrier/barrier-divergence");
}

TEST_CASE("SARIF: a rule per check, each result's ruleIndex its rule's; messages cleaned of terminal escapes") {
    const json run = run_of(findings_sample());
    const json& rules = run["tool"]["driver"]["rules"];
    std::set<std::string> ids;
    for (const json& rule : rules) {
        CHECK(ids.insert(rule.at("id").get<std::string>()).second);
        for (const char* text : {"shortDescription", "fullDescription", "help"})
            CHECK(!rule.at(text).at("text").get<std::string>().empty());
    }
    CHECK(ids == std::set<std::string>{"barrier/barrier-divergence", "memory/out-of-bounds-access",
                                       "race/data-race-on-shared-memory", "memory/uninitialized-global-memory-read-of-4-bytes",
                                       "race/race-finding-on-a-hidden-dataset", "leak/device-memory-leaked"});
    for (const json& r : run["results"]) {
        CHECK(rules.at(r.at("ruleIndex").get<std::size_t>())["id"] == r["ruleId"]);
        CHECK(r["message"]["text"].get<std::string>().find('\x1b') == std::string::npos);
    }
}

TEST_CASE("SARIF: a report without findings is an empty run, which closes the alerts of an earlier one") {
    const json run = run_of(sample());
    CHECK(run.at("results") == json::array());
    CHECK(run.at("tool").at("driver").at("rules") == json::array());
}

TEST_CASE("SARIF: a region's startColumn where the emulator read the column, none where it did not") {
    Report r = findings_sample();
    Finding& race = r.labs[1].findings[1];  // lab 02's race at scan.cu:25, launched at 35
    race.columns = {71};
    const json results = run_of(r).at("results");
    const auto it = std::find_if(results.begin(), results.end(), [](const json& x) {
        return x["properties"]["lab"] == "02-brent-kung" && x["ruleId"] == "race/data-race-on-shared-memory" &&
               line(x["locations"][0]) == 25;
    });
    REQUIRE(it != results.end());
    const json& region = (*it)["locations"][0]["physicalLocation"]["region"];
    CHECK(region["startLine"] == 25);
    CHECK(region["startColumn"] == 71);
    CHECK_FALSE((*it)["relatedLocations"][0]["physicalLocation"]["region"].contains("startColumn"));  // the launch
    CHECK(run_of(findings_sample()).dump().find("startColumn") == std::string::npos);  // the sample's: none read
}
