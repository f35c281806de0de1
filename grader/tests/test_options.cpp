// scan-grade's option table (cli/options.hpp) against what users read: every
// option is in grader/README.md's "Options and environment" table with the
// same value name, the README names none the table lacks, and the built
// `scan-grade --help` ($SCAN_GRADE) shows each. Then the parser's refusals.
#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>

#include "grader/cli/options.hpp"

namespace {

using grader::cli::Option;

// The README table's options: `--name VALUE` in a row's first cell -> VALUE
// ("" for a switch); other rows (SUBMISSION, subcommands, variables) name none.
std::map<std::string, std::string> readme_options() {
    std::ifstream in(std::string(KIT) + "/grader/README.md");
    REQUIRE(in.good());
    std::map<std::string, std::string> out;
    bool inside = false;
    const std::regex code("`(-[^` ]+)( [^`]+)?`");
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("### ", 0) == 0) inside = line == "### Options and environment";
        if (!inside || line.rfind("| ", 0) != 0) continue;
        const std::string first = line.substr(2, line.find(" | ") - 2);
        for (std::sregex_iterator m(first.begin(), first.end(), code), end; m != end; ++m)
            out[(*m)[1]] = (*m)[2].matched ? (*m)[2].str().substr(1) : "";
    }
    REQUIRE_MESSAGE(!out.empty(), "no option rows under ### Options and environment");
    return out;
}

const Option* find(const std::string& name) {
    for (const Option& o : grader::cli::options())
        for (const auto& n : o.names)
            if (n == name) return &o;
    return nullptr;
}

std::string value_of(const Option& o) { return o.value ? o.value : ""; }

std::string parse(std::vector<const char*> args, grader::cli::Settings& s) {
    args.insert(args.begin(), "scan-grade");
    return grader::cli::parse(static_cast<int>(args.size()), args.data(), s);
}

// Why scan-grade ARGS is refused, from defaults.
std::string refusal(const std::vector<const char*>& args) {
    grader::cli::Settings s;
    return parse(args, s);
}

}  // namespace

TEST_CASE("grader/README.md's option table is the option table") {
    const auto readme = readme_options();
    for (const Option& o : grader::cli::options()) {
        const auto row = readme.find(o.names[0]);
        CHECK_MESSAGE(row != readme.end(), o.names[0] << " is not in grader/README.md's option table");
        if (row != readme.end())
            CHECK_MESSAGE(row->second == value_of(o), "README: `" << o.names[0] << " " << row->second << "`, the table: "
                                                                  << value_of(o));
    }
    for (const auto& [name, value] : readme) {
        const Option* o = find(name);
        CHECK_MESSAGE(o, "grader/README.md names " << name << ", which scan-grade does not take");
        if (o && o->names[0] != name)  // an alias (a first name's value is checked above)
            CHECK_MESSAGE(value == value_of(*o), "README: `" << name << " " << value << "`, the table: " << value_of(*o));
    }
}

TEST_CASE("scan-grade --help shows every option") {
    const char* program = std::getenv("SCAN_GRADE");
    REQUIRE_MESSAGE(program, "SCAN_GRADE: the built scan-grade");
    FILE* pipe = popen((std::string("'") + program + "' --help").c_str(), "r");
    REQUIRE(pipe);
    std::string help;
    char buffer[4096];
    for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) help.append(buffer, n);
    CHECK(pclose(pipe) == 0);
    for (const Option& o : grader::cli::options()) {
        std::string names;
        for (const auto& n : o.names) names += (names.empty() ? "" : ", ") + n;
        const std::string shown = "\n  " + names + (o.value ? std::string(" ") + o.value : "") + " ";
        CHECK_MESSAGE(help.find(shown) != std::string::npos, "--help has no line starting" << shown);
    }
}

TEST_CASE("the parser refuses what it does not know, naming it") {
    CHECK(refusal({"--frobnicate"}) == "unknown option --frobnicate (scan-grade --help lists them)");
    CHECK(refusal({"--lab", "01", "--out"}) == "--out needs a value: --out DIR");
    CHECK(refusal({"--no-cache=yes"}) == "--no-cache takes no value: --no-cache=yes");
    CHECK(refusal({"--jobs", "0"}) == "--jobs takes 1 to 64");
    CHECK(refusal({"a", "b"}) == "more than one submission given: a, b");
    CHECK(refusal({"--batch", "b", "--chunk", "2"}) ==
          "--partition, --account, --time, --chunk, --cpus-per-task, --sbatch-arg and --no-submit go with --slurm");
    grader::cli::Settings help;
    CHECK(parse({"--help", "--frobnicate"}, help).empty());  // --help answers before what follows
    CHECK(help.help);
    grader::cli::Settings slurm;
    CHECK(parse({"--batch", "b", "--slurm", "--sbatch-arg=--qos=short", "--sbatch-arg", "--mem=4G"}, slurm).empty());
    CHECK(slurm.sbatch_args == std::vector<std::string>{"--qos=short", "--mem=4G"});
    grader::cli::Settings joined;  // any value after '=' (grader/README.md says so)
    CHECK(parse({"--out=results", "--lab=01"}, joined).empty());
    CHECK(joined.out == "results");
    CHECK(joined.lab_args == std::vector<std::string>{"01"});
}
