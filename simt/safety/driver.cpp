// simt-safety (the emulator's build) and simt-safety-cuda (nvcc's): runs the
// safety suite's case variants (safety.hpp), a line each:
//   GROUP/NAME bug: CHECK; CHECK        what the emulator's checks found
//   GROUP/NAME clean: none              (nvcc's build: "ran", or its problems)
// Options:
//   --case NAME       only that case (NAME or GROUP/NAME)
//   --variant V       only that variant: bug or clean
//   --list            the cases: GROUP/NAME<TAB>CLASS
//   --messages        (emulator) each finding's sentence too, under its line
//   --expect FILE     (emulator) compares the lines with FILE, the committed
//                     expectations (expected.txt says how it is written); a
//                     clean twin with a finding fails unless FILE records it
//                     as a false positive, a bug variant that finds nothing
//                     unless FILE records it as missed, each saying why
//   --readme FILE     checks that FILE's table of safety checks (between
//                     <!-- safety --> and <!-- /safety -->) has a row per class,
//                     naming its cases, and no other
// Exits 1 on a difference, a clean twin flagged (emulator) or a failed CUDA
// call or wrong clean results (nvcc's build); 2 on bad usage.
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "safety.hpp"

#ifdef SAFETY_EMULATOR
#include <simt/runtime.hpp>
#endif

namespace safety {

namespace {

std::vector<Case>& registry() {
    static std::vector<Case> all;
    return all;
}

}  // namespace

int add(const char* file, const char* name, const char* what, void (*run)(Run&)) {
    std::string group = file;
    group = group.substr(group.find_last_of('/') + 1);
    group = group.substr(0, group.find('.'));
    for (const Case& c : registry())
        if (c.name == name) return 0;  // a file compiled in two passes registers twice
    registry().push_back({group, name, what, run});
    return 0;
}

const std::vector<Case>& cases() { return registry(); }

void Run::require(cudaError_t e, const char* call) {
    if (e != cudaSuccess) problems.push_back(std::string(call) + ": " + cudaGetErrorName(e));
}

}  // namespace safety

namespace {

struct Outcome {
    std::vector<std::string> checks;  // the emulator's findings' checks, each once, in the order found
    std::vector<std::string> problems;
    std::vector<std::string> messages;  // the findings' sentences, for --messages
};

const char* variant_name(bool bug) { return bug ? "bug" : "clean"; }

std::string key(const safety::Case& c, bool bug) { return c.group + "/" + c.name + " " + variant_name(bug); }

Outcome run_variant(const safety::Case& c, bool bug) {
    Outcome o;
    safety::Run r;
    r.bug = bug;
#ifdef SAFETY_EMULATOR
    simt::take_findings();
    const simt::MemoryUsage before = simt::memory_in_use();
#endif
    c.run(r);
    r.require(cudaDeviceSynchronize(), "a kernel");
    o.problems = r.problems;
#ifdef SAFETY_EMULATOR
    for (const simt::Finding& f : simt::take_findings()) {
        if (std::find(o.checks.begin(), o.checks.end(), f.check) == o.checks.end()) o.checks.push_back(f.check);
        o.messages.push_back(simt::format(f));
    }
    // The harness's leak check: allocations still live after the case returned.
    const simt::MemoryUsage after = simt::memory_in_use();
    if (after.allocations > before.allocations) {
        o.checks.push_back("device memory leak");
        o.messages.push_back("device memory leak: " + std::to_string(after.bytes - before.bytes) + " bytes in " +
                             std::to_string(after.allocations - before.allocations) +
                             " allocation(s) still live after the case returned");
        cudaDeviceReset();  // frees them, so the next case starts with none
    }
    cudaGetLastError();
#endif
    return o;
}

std::string describe(const Outcome& o) {
    std::string out;
    for (const auto& c : o.checks) out += (out.empty() ? "" : "; ") + c;
    for (const auto& p : o.problems) out += (out.empty() ? "" : "; ") + ("problem: " + p);
#ifdef SAFETY_EMULATOR
    return out.empty() ? "none" : out;
#else
    return out.empty() ? "ran" : out;
#endif
}

std::string trim(std::string s) {
    s.erase(0, s.find_first_not_of(" \t"));
    s.erase(s.find_last_not_of(" \t\r") + 1);
    return s;
}

struct Expected {
    std::string value;  // the line's checks, as describe() prints them
    std::string why;    // its `# comment`, if any
};

// KEY: VALUE [# why], KEY being GROUP/NAME VARIANT; '#' lines are comments.
std::map<std::string, Expected> read_expected(const std::string& path, bool* found, std::vector<std::string>* bad) {
    std::map<std::string, Expected> out;
    std::ifstream in(path);
    *found = static_cast<bool>(in);
    unsigned number = 0;
    for (std::string line; std::getline(in, line);) {
        ++number;
        if (trim(line).empty() || trim(line)[0] == '#') continue;
        const std::size_t colon = line.find(':'), hash = line.find('#');
        if (colon == std::string::npos || (hash != std::string::npos && hash < colon)) {
            bad->push_back(path + ":" + std::to_string(number) + ": not KEY: VALUE");
            continue;
        }
        Expected e;
        e.value = trim(line.substr(colon + 1, hash == std::string::npos ? std::string::npos : hash - colon - 1));
        if (hash != std::string::npos) e.why = trim(line.substr(hash + 1));
        if (!out.emplace(trim(line.substr(0, colon)), e).second)
            bad->push_back(path + ":" + std::to_string(number) + ": " + trim(line.substr(0, colon)) + " twice");
    }
    return out;
}

// The table's rows: its first cell (the class) and the `code` spans of its
// second (the cases), backquotes dropped from the first.
std::map<std::string, std::set<std::string>> readme_rows(const std::string& path, bool* found) {
    std::map<std::string, std::set<std::string>> out;
    std::ifstream in(path);
    *found = false;
    bool inside = false;
    for (std::string line; std::getline(in, line);) {
        if (line.find("<!-- safety -->") != std::string::npos) {
            inside = *found = true;
            continue;
        }
        if (line.find("<!-- /safety -->") != std::string::npos) inside = false;
        if (!inside || line.rfind("| ", 0) != 0) continue;
        std::vector<std::string> cells;
        for (std::size_t at = 1, bar; (bar = line.find('|', at)) != std::string::npos; at = bar + 1)
            cells.push_back(trim(line.substr(at, bar - at)));
        if (cells.size() < 2 || cells[0] == "class" || cells[0].rfind("---", 0) == 0) continue;
        std::string cls = cells[0];
        cls.erase(std::remove(cls.begin(), cls.end(), '`'), cls.end());
        auto& names = out[cls];
        for (std::size_t a = cells[1].find('`'); a != std::string::npos; a = cells[1].find('`', a + 1)) {
            const std::size_t b = cells[1].find('`', a + 1);
            if (b == std::string::npos) break;
            names.insert(cells[1].substr(a + 1, b - a - 1));
            a = b;
        }
    }
    return out;
}

int check_readme(const std::string& path) {
    bool found = false;
    const auto table = readme_rows(path, &found);
    if (!found) {
        std::fprintf(stderr, "%s has no <!-- safety --> table\n", path.c_str());
        return 2;
    }
    std::map<std::string, std::set<std::string>> suite;
    for (const auto& c : safety::cases()) suite[c.what].insert(c.name);
    unsigned problems = 0;
    for (const auto& [cls, names] : suite) {
        const auto row = table.find(cls);
        if (row == table.end()) {
            std::printf("the suite's class \"%s\" has no row in %s's table\n", cls.c_str(), path.c_str()), ++problems;
        } else if (row->second != names) {
            std::string want;
            for (const auto& n : names) want += " `" + n + "`";
            std::printf("%s's row \"%s\" should name the cases%s\n", path.c_str(), cls.c_str(), want.c_str()), ++problems;
        }
    }
    for (const auto& [cls, names] : table)
        if (!suite.count(cls)) std::printf("%s's table has a row \"%s\", no class of the suite\n", path.c_str(), cls.c_str()), ++problems;
    std::printf("safety table: %zu rows in %s, %zu classes in the suite: %s\n", table.size(), path.c_str(), suite.size(),
                problems ? "they differ" : "the same");
    return problems ? 1 : 0;
}

int usage(const std::string& why) {
    std::fprintf(stderr,
                 "%s\nusage: simt-safety [--case NAME] [--variant bug|clean] [--expect FILE] [--messages]\n"
                 "       simt-safety --list | --readme FILE\n"
                 "       (--expect and --messages: the emulator's build only)\n",
                 why.c_str());
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    std::string only, variant, expect, readme;
    bool list = false, messages = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--messages") {
            messages = true;
            continue;
        }
        std::string* into = a == "--case" ? &only : a == "--variant" ? &variant : a == "--expect" ? &expect
                          : a == "--readme" ? &readme : nullptr;
        if (a == "--list") list = true;
        else if (!into) return usage("unknown option '" + a + "'");
        else if (i + 1 >= argc) return usage(a + " needs a value");
        else *into = argv[++i];
    }
    if (!variant.empty() && variant != "bug" && variant != "clean") return usage("--variant is bug or clean");
#ifndef SAFETY_EMULATOR
    if (!expect.empty()) return usage("--expect compares the emulator's findings: run simt-safety");
#endif
    std::vector<const safety::Case*> chosen;
    for (const auto& c : safety::cases())
        if (only.empty() || only == c.name || only == c.group + "/" + c.name) chosen.push_back(&c);
    std::stable_sort(chosen.begin(), chosen.end(), [](auto* a, auto* b) { return a->group < b->group; });
    if (chosen.empty()) return usage("no case '" + only + "' (--list lists them)");

    if (list) {
        for (const auto* c : chosen) std::printf("%s/%s\t%s\n", c->group.c_str(), c->name.c_str(), c->what.c_str());
        return 0;
    }
    if (!readme.empty()) return check_readme(readme);
#ifdef SAFETY_EMULATOR
    // The record is of the default block order (block_order's deadlock shows
    // in it, not in launch order), whatever SIMT_BLOCK_ORDER says.
    if (!expect.empty()) simt::set_block_order("default");
#endif

    std::map<std::string, Outcome> ran;
    std::vector<std::string> order;
    for (const auto* c : chosen)
        for (const bool bug : {true, false}) {
            if (!variant.empty() && variant != variant_name(bug)) continue;
            const Outcome o = run_variant(*c, bug);
            std::printf("%s: %s\n", key(*c, bug).c_str(), describe(o).c_str());
            if (messages)
                for (const auto& m : o.messages) std::printf("    %s\n", m.c_str());
            std::fflush(stdout);
            ran[key(*c, bug)] = o;
            order.push_back(key(*c, bug));
        }

    const auto is_bug = [](const std::string& k) { return k.compare(k.size() - 4, 4, " bug") == 0; };
    if (expect.empty()) {
        // A clean twin with a finding fails (emulator); any variant with a
        // problem fails (nvcc's build: the script reads it from the line).
        unsigned failed = 0;
        for (const auto& k : order)
#ifdef SAFETY_EMULATOR
            failed += !is_bug(k) && (!ran[k].checks.empty() || !ran[k].problems.empty());
#else
            failed += !ran[k].problems.empty();
#endif
        return failed ? 1 : 0;
    }

    bool have = false;
    std::vector<std::string> bad;
    const auto expected = read_expected(expect, &have, &bad);
    if (!have) return usage("cannot read " + expect);
    // Against the record, line by line. A clean twin's finding fails even
    // where the record has it, unless the record calls it a false positive;
    // a bug variant that finds nothing must say why it is missed. So neither
    // is ever silent, and either, once the emulator changes, is a difference.
    unsigned equal = 0, differ = 0, missing = 0, found = 0, missed = 0, flagged = 0, false_positives = 0, unexplained = 0;
    std::string missed_names, false_names;
    for (const auto& k : order) {
        const Outcome& o = ran[k];
        const auto it = expected.find(k);
        const std::string got = describe(o), why = it == expected.end() ? "" : it->second.why;
        if (it == expected.end()) std::printf("not in %s: %s: %s\n", expect.c_str(), k.c_str(), got.c_str()), ++missing;
        else if (it->second.value != got)
            std::printf("differs: %s: the emulator: %s; %s: %s\n", k.c_str(), got.c_str(), expect.c_str(),
                        it->second.value.c_str()), ++differ;
        else ++equal;
        const bool recorded = it != expected.end() && it->second.value == got;
        if (is_bug(k) && o.checks.empty()) {
            ++missed;
            missed_names += " " + k.substr(0, k.size() - 4);
            if (!recorded || why.rfind("missed:", 0) != 0)
                std::printf("missed without a reason: %s (%s records it with `# missed: why`)\n", k.c_str(), expect.c_str()),
                    ++unexplained;
        } else if (is_bug(k)) {
            ++found;
        } else if (!o.checks.empty() || !o.problems.empty()) {
            ++flagged;
            false_names += " " + k.substr(0, k.size() - 6);
            if (recorded && why.rfind("false positive:", 0) == 0) ++false_positives;
            else std::printf("clean twin flagged: %s: %s\n", k.c_str(), got.c_str());
        }
    }
    if (only.empty() && variant.empty())
        for (const auto& [k, e] : expected)
            if (!ran.count(k)) std::printf("in %s but not in the suite: %s\n", expect.c_str(), k.c_str()), ++missing;
    for (const auto& b : bad) std::printf("%s\n", b.c_str());
    std::set<std::string> classes;
    for (const auto* c : chosen) classes.insert(c->what);
    std::printf("safety on the CPU emulator: %zu cases in %zu classes; bug variants: %u found, %u missed%s; clean twins: "
                "%u flagged%s (%u recorded as false positives); against %s: %u equal, %u differ, %u missing\n",
                chosen.size(), classes.size(), found, missed, missed ? (" (" + missed_names.substr(1) + ")").c_str() : "",
                flagged, flagged ? (" (" + false_names.substr(1) + ")").c_str() : "", false_positives, expect.c_str(),
                equal, differ, missing);
    return differ || missing || unexplained || flagged > false_positives || !bad.empty() ? 1 : 0;
}
