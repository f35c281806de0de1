// The grader's intake (unpack.hpp, lab_files.hpp, batch.hpp): every upload a
// student makes is graded or refused with the message they read, never lost.
// Archives are written here with libarchive, in each format it writes.
#include <archive.h>
#include <archive_entry.h>
#include <doctest/doctest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "grader/core/files.hpp"
#include "grader/intake/batch.hpp"
#include "grader/intake/lab_files.hpp"
#include "grader/intake/submission.hpp"
#include "grader/intake/unpack.hpp"

namespace fs = std::filesystem;
using namespace grader;

namespace {

// Writes a file, its folders first.
void put(const fs::path& path, const std::string& text) {
    fs::create_directories(path.parent_path());
    write_file(path.string(), text);
}

// A fresh scratch folder per test case.
struct Scratch {
    fs::path dir;
    Scratch() {
        dir = fs::temp_directory_path() / ("scan-intake-" + std::to_string(getpid()) + "-" + std::to_string(counter()++));
        fs::remove_all(dir);
        fs::create_directories(dir);
    }
    ~Scratch() { fs::remove_all(dir); }
    static int& counter() {
        static int n = 0;
        return n;
    }
    fs::path file(const std::string& rel, const std::string& text) const {
        put(dir / rel, text);
        return dir / rel;
    }
};

const std::string kLab02 = read_file(KIT "/reference/02-brent-kung/scan.cu");
const std::string kLab01 = read_file(KIT "/reference/01-kogge-stone/scan.cu");

// Writes `files` (path -> content) as an archive of libarchive's `format`
// (ARCHIVE_FORMAT_*) through `filter` (ARCHIVE_FILTER_*).
void make_archive(const fs::path& path, int format, int filter, const std::map<std::string, std::string>& files) {
    archive* a = archive_write_new();
    REQUIRE(archive_write_set_format(a, format) == ARCHIVE_OK);
    if (filter != ARCHIVE_FILTER_NONE) REQUIRE(archive_write_add_filter(a, filter) == ARCHIVE_OK);
    REQUIRE(archive_write_open_filename(a, path.c_str()) == ARCHIVE_OK);
    for (const auto& [name, content] : files) {
        archive_entry* e = archive_entry_new();
        archive_entry_set_pathname(e, name.c_str());
        archive_entry_set_size(e, static_cast<la_int64_t>(content.size()));
        archive_entry_set_filetype(e, AE_IFREG);
        archive_entry_set_perm(e, 0644);
        REQUIRE(archive_write_header(a, e) == ARCHIVE_OK);
        REQUIRE(archive_write_data(a, content.data(), content.size()) == static_cast<la_ssize_t>(content.size()));
        archive_entry_free(e);
    }
    archive_write_close(a);
    archive_write_free(a);
}

std::string refusal(const fs::path& source, const fs::path& to, std::string* kind = nullptr) {
    try {
        unpack_into(source, to);
    } catch (const SubmissionError& e) {
        if (kind) *kind = e.kind;
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("unpack: every archive format libarchive writes, by any extension's case") {
    Scratch s;
    const std::map<std::string, std::string> files = {{"labs/02-brent-kung/scan.cu", kLab02}};
    const struct {
        const char* name;
        int format, filter;
    } kinds[] = {{"a.ZIP", ARCHIVE_FORMAT_ZIP, ARCHIVE_FILTER_NONE},
                 {"b.tar", ARCHIVE_FORMAT_TAR_PAX_RESTRICTED, ARCHIVE_FILTER_NONE},
                 {"c.tar.gz", ARCHIVE_FORMAT_TAR_GNUTAR, ARCHIVE_FILTER_GZIP},
                 {"d.TGZ", ARCHIVE_FORMAT_TAR_USTAR, ARCHIVE_FILTER_GZIP},
                 {"e.tar.bz2", ARCHIVE_FORMAT_TAR_PAX_RESTRICTED, ARCHIVE_FILTER_BZIP2},
                 {"f.tar.xz", ARCHIVE_FORMAT_TAR_PAX_RESTRICTED, ARCHIVE_FILTER_XZ},
                 {"g.7z", ARCHIVE_FORMAT_7ZIP, ARCHIVE_FILTER_NONE},
                 {"h.cpio", ARCHIVE_FORMAT_CPIO_POSIX, ARCHIVE_FILTER_NONE},
                 {"no-extension", ARCHIVE_FORMAT_ZIP, ARCHIVE_FILTER_NONE}};
    for (const auto& k : kinds) {
        CAPTURE(k.name);
        make_archive(s.dir / k.name, k.format, k.filter, files);
        CHECK(readable_archive(s.dir / k.name));
        const fs::path to = s.dir / (std::string("out-") + k.name);
        CHECK(unpack_into(s.dir / k.name, to).left_out.empty());
        CHECK(read_file((to / "labs/02-brent-kung/scan.cu").string()) == kLab02);
    }
    CHECK(archive_extension("alice.ZIP") == 4);
    CHECK(archive_extension("alice.Tar.Gz") == 7);
    CHECK(archive_extension("alice.7z") == 3);
    CHECK(archive_extension("alice.rar") == 4);
    CHECK(archive_extension("alice.cu") == 0);
    CHECK(submission_name("uma.ZIP") == "uma");
    CHECK(submission_name("walt.tar") == "walt");
    CHECK(submission_name("gus.CU") == "gus");
    CHECK(submission_name("alice") == "alice");
    // Text is no archive, even to formats that read any text (mtree).
    CHECK_FALSE(readable_archive(s.file("notes.pdf", "hello\n")));
}

TEST_CASE("unpack: corrupt, empty, and what is left out unread") {
    Scratch s;
    std::string kind;
    CHECK(refusal(s.file("corrupt.zip", "not an archive"), s.dir / "o1", &kind).find("cannot open corrupt.zip as an archive") == 0);
    CHECK(kind == "unreadable");
    make_archive(s.dir / "empty.zip", ARCHIVE_FORMAT_ZIP, ARCHIVE_FILTER_NONE, {});
    CHECK(refusal(s.dir / "empty.zip", s.dir / "o2", &kind) == "empty.zip is empty: it holds no files");
    CHECK(kind == "empty");
    make_archive(s.dir / "builds.zip", ARCHIVE_FORMAT_ZIP, ARCHIVE_FILTER_NONE, {{"build/lab02-tests", "\x7f" "ELF..."}});
    CHECK(refusal(s.dir / "builds.zip", s.dir / "o3") ==
          "builds.zip is empty: it holds only what the grader never reads: build/ (1 entries: a build, version-control or "
          "cache folder)");
    // A whole repository: its build folder, .git and binaries stay out, named.
    make_archive(s.dir / "repo.zip", ARCHIVE_FORMAT_ZIP, ARCHIVE_FILTER_NONE,
                 {{"repo/labs/02-brent-kung/scan.cu", kLab02}, {"repo/build/labs/lab02-tests", "\x7f" "ELF"},
                  {"repo/.git/HEAD", "ref: refs/heads/main\n"}, {"repo/labs/02-brent-kung/a.out", "x"},
                  {"repo/labs/02-brent-kung/tool", std::string("\x7f" "ELF", 4) + "binary"}});
    const Unpacked u = unpack_into(s.dir / "repo.zip", s.dir / "o4");
    REQUIRE(u.left_out.size() == 3);
    CHECK(u.left_out[0] == "repo/.git/ (1 entries: a build, version-control or cache folder)");
    CHECK(u.left_out[1] == "repo/build/ (1 entries: a build, version-control or cache folder)");
    CHECK(u.left_out[2] == "2 object file(s) and binaries (repo/labs/02-brent-kung/a.out, repo/labs/02-brent-kung/tool)");
    CHECK(fs::exists(s.dir / "o4/repo/labs/02-brent-kung/scan.cu"));
    CHECK_FALSE(fs::exists(s.dir / "o4/repo/build"));
}

TEST_CASE("unpack: over the size limit, the message names the largest folders; build folders do not count") {
    Scratch s;
    s.file("repo/labs/02-brent-kung/scan.cu", kLab02);
    // Sparse files: 200 MiB in a build folder, read by nothing.
    s.file("repo/build/big.o", "");
    fs::resize_file(s.dir / "repo/build/big.o", 200u << 20);
    s.file("repo/build/x", "");
    fs::resize_file(s.dir / "repo/build/x", 100u << 20);
    const Unpacked u = unpack_into(s.dir / "repo", s.dir / "o1");
    REQUIRE(u.left_out.size() == 1);
    CHECK(u.left_out[0] == "build/ (2 entries: a build, version-control or cache folder)");
    s.file("repo/data/input.raw", "");
    fs::resize_file(s.dir / "repo/data/input.raw", 70u << 20);
    std::string kind;
    const std::string why = refusal(s.dir / "repo", s.dir / "o2", &kind);
    CHECK(kind == "too large");
    CAPTURE(why);
    CHECK(why.find("the folder repo holds more than the grader reads (64 MiB or 20000 files; build folders, .git, object "
                   "files and binaries are left out already): 70.0 MiB in 2 files; the largest folders: data/ 70.0 MiB, "
                   "labs/02-brent-kung/ 2 KiB. Submit the labs/NN-name/scan.cu files") == 0);
}

TEST_CASE("lab files: found by the lab function they define, with a note; two are named and neither guessed") {
    Scratch s;
    IntakeRules lenient;
    const auto one = [&](const std::string& rel) {
        const fs::path root = s.dir / ("root-" + std::to_string(Scratch::counter()++));
        fs::create_directories(root);
        put(root / rel, kLab02);
        return find_lab_files(root, root, lenient, KIT);
    };
    for (const std::string rel : {"labs/02-brent-kung/Scan.cu", "labs/02-brent-kung/scan (1).cu", "scan.cu",
                                  "lab02/scan.cu", "alice_1234_scan.cu"}) {
        CAPTURE(rel);
        const LabFiles f = one(rel);
        REQUIRE(f.found.count("02-brent-kung") == 1);
        const LabFile& lab = f.found.at("02-brent-kung");
        CHECK(lab.from == rel);
        REQUIRE(lab.notes.size() == 1);
        CHECK(lab.notes[0] == rel + " taken as lab 02's scan.cu (it defines brent_kung_scan); name it labs/02-brent-kung/scan.cu");
        CHECK(lab.flag == "taken from " + rel + " (misnamed)");
    }
    // The accepted layouts take no note.
    for (const std::string rel : {"labs/02-brent-kung/scan.cu", "02-brent-kung/scan.cu", "lab02.cu", "02-brent-kung.cu"}) {
        CAPTURE(rel);
        const LabFiles f = one(rel);
        REQUIRE(f.found.count("02-brent-kung") == 1);
        CHECK(f.found.at("02-brent-kung").notes.empty());
    }
    // Two candidates: neither graded.
    const fs::path two = s.dir / "two";
    put(two / "labs/02-brent-kung/Scan.cu", kLab02);
    fs::create_directories(two / "old");
    put(two / "old/scan.cu", kLab02);
    LabFiles f = find_lab_files(two, two, lenient, KIT);
    CHECK(f.found.count("02-brent-kung") == 0);
    CHECK(f.missing.at("02-brent-kung") ==
          "2 files define brent_kung_scan (labs/02-brent-kung/Scan.cu, old/scan.cu): neither was graded; keep one, named "
          "labs/02-brent-kung/scan.cu");
    // The accepted layout wins, the other named.
    put(two / "labs/02-brent-kung/scan.cu", kLab02);
    f = find_lab_files(two, two, lenient, KIT);
    REQUIRE(f.found.count("02-brent-kung") == 1);
    CHECK(f.found.at("02-brent-kung").from == "labs/02-brent-kung/scan.cu");
    CHECK(f.found.at("02-brent-kung").flag == "not graded: labs/02-brent-kung/Scan.cu, old/scan.cu");
    // Strict intake: named, not taken.
    IntakeRules strict;
    strict.misnamed = false;
    const fs::path misnamed = s.dir / "strict";
    put(misnamed / "labs/02-brent-kung/Scan.cu", kLab02);
    f = find_lab_files(misnamed, misnamed, strict, KIT);
    CHECK(f.found.empty());
    CHECK(f.missing.at("02-brent-kung") ==
          "labs/02-brent-kung/Scan.cu defines brent_kung_scan but is not named labs/02-brent-kung/scan.cu: the rubric "
          "grades only the accepted names, so rename it");
    // A file with two labs' functions is each lab's.
    const fs::path both = s.dir / "both";
    put(both / "all.cu", kLab01 + "\n" + kLab02);
    f = find_lab_files(both, both, lenient, KIT);
    CHECK(f.found.count("01-kogge-stone") == 1);
    CHECK(f.found.count("02-brent-kung") == 1);
}

TEST_CASE("lab files: a byte-order mark is removed, UTF-16 refused with a message") {
    Scratch s;
    const fs::path bom = s.dir / "bom";
    put(bom / "labs/02-brent-kung/scan.cu", "\xEF\xBB\xBF" + kLab02);
    LabFiles f = find_lab_files(bom, bom, IntakeRules{}, KIT);
    REQUIRE(f.found.count("02-brent-kung") == 1);
    CHECK(read_file(f.found.at("02-brent-kung").path) == kLab02);
    CHECK(f.found.at("02-brent-kung").notes ==
          std::vector<std::string>{"labs/02-brent-kung/scan.cu began with a UTF-8 byte-order mark, which was removed"});
    CHECK(f.found.at("02-brent-kung").refused.empty());
    const fs::path wide = s.dir / "wide";
    std::string utf16 = "\xFF\xFE";
    for (char c : kLab02) utf16 += std::string{c, '\0'};
    put(wide / "labs/02-brent-kung/scan.cu", utf16);
    f = find_lab_files(wide, wide, IntakeRules{}, KIT);
    REQUIRE(f.found.count("02-brent-kung") == 1);
    CHECK(f.found.at("02-brent-kung").refused ==
          "labs/02-brent-kung/scan.cu is UTF-16 text, which nvcc and g++ do not read: save it as UTF-8");
    // Found by its function even so (the zero bytes dropped to read it).
    fs::rename(wide / "labs/02-brent-kung/scan.cu", wide / "labs/02-brent-kung/Scan.cu");
    f = find_lab_files(wide, wide, IntakeRules{}, KIT);
    REQUIRE(f.found.count("02-brent-kung") == 1);
    CHECK(f.found.at("02-brent-kung").refused.find("is UTF-16 text") != std::string::npos);
}

TEST_CASE("lab files: headers of the student's own are taken with scan.cu, or refused by name") {
    Scratch s;
    std::string src = kLab02;
    src.replace(src.find("#include \"scan.hpp\""), 19, "#include \"scan.hpp\"\n#include \"helpers.cuh\"");
    const fs::path root = s.dir / "h";
    put(root / "labs/02-brent-kung/scan.cu", src);
    put(root / "labs/02-brent-kung/helpers.cuh", "#pragma once\n#include \"util/more.h\"\n");
    fs::create_directories(root / "labs/02-brent-kung/util");
    put(root / "labs/02-brent-kung/util/more.h", "#pragma once\n");
    put(root / "labs/02-brent-kung/unused.cuh", "#pragma once\n");
    LabFiles f = find_lab_files(root, root, IntakeRules{}, KIT);
    const LabFile& lab = f.found.at("02-brent-kung");
    CHECK(lab.refused.empty());
    CHECK(lab.headers == std::vector<std::string>{"helpers.cuh", "util/more.h"});  // scan.hpp is the kit's
    CHECK(std::find(f.taken.begin(), f.taken.end(), "labs/02-brent-kung/helpers.cuh") != f.taken.end());
    CHECK(std::find(f.taken.begin(), f.taken.end(), "labs/02-brent-kung/unused.cuh") == f.taken.end());
    CHECK(graded_text(lab).find("#include \"util/more.h\"") != std::string::npos);
    IntakeRules none;
    none.headers.clear();
    f = find_lab_files(root, root, none, KIT);
    CHECK(f.found.at("02-brent-kung").refused ==
          "labs/02-brent-kung/scan.cu includes \"helpers.cuh\", a file of yours: only scan.cu is graded (the rubric takes "
          "no headers), so put what helpers.cuh holds into scan.cu");
    IntakeRules cuh_only;
    cuh_only.headers = {"*.cuh"};
    f = find_lab_files(root, root, cuh_only, KIT);
    CHECK(f.found.at("02-brent-kung").refused ==
          "labs/02-brent-kung/scan.cu includes \"util/more.h\", a file of yours the grader does not take: it takes only "
          "scan.cu and headers named *.cuh beside it; rename util/more.h or put what it holds into scan.cu");
    IntakeRules small = IntakeRules{};
    small.header_max_bytes = 4;
    f = find_lab_files(root, root, small, KIT);
    CHECK(f.found.at("02-brent-kung").refused.find("includes \"") != std::string::npos);
    CHECK(f.found.at("02-brent-kung").refused.find("which is larger than the rubric takes (0 KiB)") != std::string::npos);
}

// The source rules of `text` as lab 01's scan.cu ("" where it meets them).
std::string rules_of(const Scratch& s, const std::string& text) {
    LabFile file;
    file.path = s.file("labs/01-kogge-stone/scan.cu", text).string();
    return source_policy(file);
}

const std::string kOutside = "#include of a path outside the lab folder";
const std::string kReach = "reaching into the emulator, the runner or the allocation wrappers";
const std::string kEmbed = "embedding another file (.incbin, #embed)";

// Whether `rules` (source_policy's answer) names `line` of scan.cu and the rule `what`.
bool broke(const std::string& rules, int line, const std::string& what) {
    return rules.rfind("scan.cu:" + std::to_string(line) + ": " + what, 0) == 0;
}

TEST_CASE("source rules: comments and literals quoting a rule's text are no violation") {
    Scratch s;
    const std::string kernel = kLab01;
    CHECK(rules_of(s, "// the tests use #include \"../common/harness.hpp\" and simt::launch\n" + kernel) == "");
    CHECK(rules_of(s, "/* Notes:\n     #include \"../../common/harness.hpp\"\n   # include </etc/passwd>\n"
                      "   simt::launch, harness::run, __wrap_cudaMalloc, .incbin, #embed\n*/\n" + kernel) == "");
    CHECK(rules_of(s, kernel + "static const char* note = \"#include \\\"../x.h\\\" simt::launch #embed\";\n") == "");
    CHECK(rules_of(s, kernel + "static const char* raw = R\"(#include \"../x.h\" simt::launch)\";\n"
                               "static const char* tagged = R\"tag(a )\" simt::x(); #include </etc/passwd> )tag\";\n") == "");
    // A // comment a line splice continues is still a comment; 1'000 is a number, not a character literal.
    CHECK(rules_of(s, kernel + "// simt::launch, continued \\\n   onto simt::launch here\n") == "");
    CHECK(rules_of(s, kernel + "const int big = 1'000'000; // simt::launch\n") == "");
    // CUDA's own and the standard library's names that contain the words.
    CHECK(rules_of(s, kernel + "int device = 0; void f() { cudaGetDevice(&device); }\n#define POLICY thrust::device\n"
                               "__device__ int on_device; int simt_steps = 0;\n") == "");
}

TEST_CASE("source rules: an #include outside the lab folder, however written, is refused") {
    Scratch s;
    CHECK(broke(rules_of(s, "#include \"scan.hpp\"\n#include \"../../x.h\"\n"), 2, kOutside));
    CHECK(broke(rules_of(s, "\n# include </etc/passwd>\n"), 2, kOutside));
    CHECK(broke(rules_of(s, "%:include \"../common/harness.hpp\"\n"), 1, kOutside));  // a digraph for '#'
    CHECK(broke(rules_of(s, "#include_next <../x>\n"), 1, kOutside));
    // Spliced lines are one directive, named by the line it starts on.
    CHECK(broke(rules_of(s, "int a;\n#inc\\\nlude \"../x.h\"\nint b;\n"), 2, kOutside));
    // A header-name is a file name, not a comment or literal: // and \ in it are its characters.
    CHECK(broke(rules_of(s, "#include <a//../../etc/passwd>\n"), 1, kOutside));
    CHECK(broke(rules_of(s, "#include \"a\\\" //\" ../x\"\n"), 1, kOutside) == false);
    CHECK(broke(rules_of(s, "#define P \"../x.h\"\n#include P\n"), 2, "#include of a macro (a computed #include)"));
    CHECK(rules_of(s, "#include \"scan.hpp\"\n#include <cstdio>\n#include \"helpers/warp.cuh\"\n") == "");
}

TEST_CASE("source rules: the emulator's, runner's and wrappers' names in code are refused, however spelt") {
    Scratch s;
    CHECK(broke(rules_of(s, "// simt::launch in a comment\nvoid f() { simt::launch(k, {}, 1, 1); }\n"), 2, kReach));
    CHECK(broke(rules_of(s, "void f() { ::harness :: observe(); }\n"), 1, kReach));
    CHECK(broke(rules_of(s, "namespace s = simt;\n"), 1, kReach));
    CHECK(broke(rules_of(s, "using namespace ::device;\n"), 1, kReach));
    CHECK(broke(rules_of(s, "#define NS simt\nvoid f() { NS::launch(); }\n"), 1, kReach));
    CHECK(broke(rules_of(s, "void f() { sim\\\nt::launch(); }\n"), 1, kReach));
    CHECK(broke(rules_of(s, "void f() { simt/* */::launch(); }\n"), 1, kReach));
    CHECK(broke(rules_of(s, "extern \"C\" void* __wrap_cudaMalloc(void**, unsigned long);\n"), 1, kReach));
    // After a string that a digit separator would have opened as a character literal.
    CHECK(broke(rules_of(s, "int a = 1'0; simt::launch(); int b = 2'0;\n"), 1, kReach));
    // A block comment that a spliced */ ends: what follows is code.
    CHECK(broke(rules_of(s, "/* a *\\\n/ void f() { simt::launch(); } /* */\n"), 1, kReach));
    // A raw string ends at )" however many quotes it holds.
    CHECK(broke(rules_of(s, "const char* r = R\"(a\")\"; void f() { simt::launch(); } // \"\n"), 1, kReach));
    // Token pasting, in a macro's body or through a pasting macro's arguments.
    CHECK(broke(rules_of(s, "#define NS si##mt\n"), 1, kReach));
    CHECK(broke(rules_of(s, "#define CAT(a, b) a##b\n#define GLUE(a, b) CAT(a, b)\nvoid f() {\n GLUE(si, mt)::launch();\n}\n"),
                4, kReach));
    CHECK(broke(rules_of(s, "#define CAT(a, b) a ## b\nvoid* p = CAT(CAT(__wr, ap), _cudaMalloc);\n"), 2, kReach));
    CHECK(rules_of(s, "#define CAT(a, b) a##b\nint CAT(scan_, device) = 0;\n") == "");
    // An asm label names a symbol: the wrappers' and the kit's mangled names count there.
    CHECK(broke(rules_of(s, "\nextern \"C\" int raw_free(void*) asm(\"__real_cudaFree\");\n"), 2, kReach));
    CHECK(broke(rules_of(s, "void f() asm(\"_ZN4simt6launchEv\");\n"), 1, kReach));
}

TEST_CASE("source rules: embedding a file, in code or in an asm string, is refused; in a comment or string it is text") {
    Scratch s;
    CHECK(broke(rules_of(s, "const unsigned char data[] = {\n#embed \"answers.bin\"\n};\n"), 2, kEmbed));
    CHECK(broke(rules_of(s, "\nasm(\".incbin \\\"/etc/passwd\\\"\");\n"), 2, kEmbed + " in a string literal"));
    CHECK(broke(rules_of(s, "asm(\".section .rodata\\n\"\n    \".inc\" \"bin \\\"x\\\"\");\n"), 2, kEmbed));
    CHECK(broke(rules_of(s, "asm(\"\\x2eincbin \\\"x\\\"\");\n"), 1, kEmbed));
    CHECK(broke(rules_of(s, "asm(R\"(.incbin \"x\")\");\n"), 1, kEmbed));
    CHECK(broke(rules_of(s, "#define S(x) #x\nasm(S(.incbin \"x\"));\n"), 2, kEmbed));
    CHECK(rules_of(s, "// no .incbin here\nconst char* why = \"no #embed of a table\";\n") == "");
}

TEST_CASE("defines_function: a definition, not a declaration, a call or a comment") {
    CHECK(defines_function("void brent_kung_scan(const float* in, float* out, unsigned n) {\n}", "brent_kung_scan"));
    CHECK(defines_function("void\nbrent_kung_scan (const float* in,\n  float* out, unsigned n)\n{", "brent_kung_scan"));
    CHECK(defines_function("void ::brent_kung_scan(const float* a, float* b, unsigned n) noexcept {}", "brent_kung_scan"));
    CHECK_FALSE(defines_function("void brent_kung_scan(const float*, float*, unsigned);", "brent_kung_scan"));
    CHECK_FALSE(defines_function("int main() { brent_kung_scan(a, b, n); }", "brent_kung_scan"));
    CHECK_FALSE(defines_function("if (brent_kung_scan(a)) {", "brent_kung_scan"));
    CHECK_FALSE(defines_function("// void brent_kung_scan(const float* a, float* b, unsigned n) {}", "brent_kung_scan"));
    CHECK_FALSE(defines_function("void my_brent_kung_scan(const float* a, float* b, unsigned n) {}", "brent_kung_scan"));
}

TEST_CASE("batch: every entry accounted for; duplicates graded apart or refused together") {
    Scratch s;
    const fs::path batch = s.dir / "batch";
    for (const char* name : {"uma.ZIP", "alice.zip", "alice.tar.gz", "walt.tar", "gus.cu", "notes.pdf", ".DS_Store"})
        put(batch / name, "x");
    make_archive(batch / "noext", ARCHIVE_FORMAT_ZIP, ARCHIVE_FILTER_NONE, {{"scan.cu", kLab02}});
    fs::create_directories(batch / "bob");
    fs::create_directories(batch / "Alice");
    fs::create_symlink(batch / "bob", batch / "link");
    Batch b = read_batch(batch, false);
    std::map<std::string, const BatchEntry*> by_file;
    for (const BatchEntry& e : b.entries) by_file[e.path.filename().string()] = &e;
    REQUIRE(b.entries.size() == 10);
    CHECK(b.hidden == std::vector<std::string>{".DS_Store"});
    CHECK(by_file.at("uma.ZIP")->name == "uma");
    CHECK(by_file.at("walt.tar")->name == "walt");
    CHECK(by_file.at("gus.cu")->name == "gus");
    CHECK(by_file.at("noext")->name == "noext");
    CHECK(by_file.at("noext")->refused.empty());
    CHECK(by_file.at("bob")->name == "bob");
    CHECK(by_file.at("notes.pdf")->refused == "notes.pdf is not a folder, an archive (zip, tar, tar.gz, 7z, rar, ...) or a .cu file");
    CHECK(by_file.at("notes.pdf")->kind == "not a submission");
    CHECK(by_file.at("link")->refused == "link is a link: the grader takes folders and files, never links");
    // alice.zip, alice.tar.gz and the folder Alice: one student, three uploads.
    CHECK(by_file.at("alice.zip")->name == "alice.zip");
    CHECK(by_file.at("alice.tar.gz")->name == "alice.tar.gz");
    CHECK(by_file.at("Alice")->name == "Alice");
    CHECK(by_file.at("alice.zip")->refused.empty());
    REQUIRE(b.warnings.size() == 1);
    CHECK(b.warnings[0] == "3 uploads for Alice: Alice, alice.tar.gz, alice.zip; each graded, as Alice, alice.tar.gz, alice.zip");
    b = read_batch(batch, true);
    for (const BatchEntry& e : b.entries)
        if (e.name == "alice.zip" || e.name == "alice.tar.gz" || e.name == "Alice") {
            CHECK(e.kind == "duplicate upload");
            CHECK(e.refused == "3 uploads for Alice (Alice, alice.tar.gz, alice.zip): the rubric's intake.duplicates is "
                               "\"refuse\", so none is graded; keep one");
        }
    CHECK(batch_summary(12, 9, 2, {"not a submission", "duplicate upload", "not a submission"}) ==
          "12 entries: 9 graded (2 taken from an earlier run), 3 refused (1 duplicate upload, 2 not a submission)");
    CHECK(batch_summary(1, 1, 0, {}) == "1 entry: 1 graded (0 taken from an earlier run), 0 refused");
}
