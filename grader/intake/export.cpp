#include "grader/intake/export.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <system_error>

#include "catalog.hpp"
#include "grader/core/files.hpp"

namespace fs = std::filesystem;

namespace grader {
namespace {

constexpr const char* kExportUsage = R"(usage: scan-grade export [--kit DIR] [--force] DIR

Writes the student repository into DIR: the lab stubs and handouts (labs/), the
dataset generator and public manifests (datasets/), the CPU emulator (simt/),
scan-bench (bench/), the Meson project, the scan-labs script, a README.md
(course/student/README.md), a .gitignore, VS Code's tasks with a problem matcher
for the findings (.vscode/tasks.json) and the autograding workflow
.github/workflows/grade.yml (course/github/grade.yml). Nothing else of the kit:
never reference/, grader/, course/ or .ci/.
options:
  --kit DIR   the kit to export (default: the one this scan-grade was built from)
  --force     write into a DIR that is not empty: the repository's own files and
              folders are replaced, anything else there (a .git) is left as it is
exit status: 0 written, 1 DIR cannot be written (or a file to export is a copy of
a reference/ or grader/ file), 2 bad usage
)";

int usage(const std::string& why) {
    std::fprintf(stderr, "scan-grade export: %s\n%s", why.c_str(), kExportUsage);
    return 2;
}

bool within(const fs::path& inner, const fs::path& outer) {
    const fs::path rel = inner.lexically_relative(outer);
    return !rel.empty() && *rel.begin() != "..";
}

// Every file of the export as (kit path, repository path), folders expanded.
// Links and other non-regular files are left out, as in the grader's copies.
std::vector<std::pair<fs::path, fs::path>> files_of(const fs::path& kit, const std::vector<KitPart>& parts) {
    std::vector<std::pair<fs::path, fs::path>> out;
    for (const KitPart& part : parts) {
        if (!part.folder) {
            out.emplace_back(kit / part.from, part.to);
            continue;
        }
        for (const std::string& rel : part_files(kit.string(), part))
            out.emplace_back(kit / part.from / rel, fs::path(part.to) / rel);
    }
    return out;
}

// A file to export that is byte for byte a file of reference/ or grader/:
// "labs/02-brent-kung/scan.cu is a copy of reference/02-brent-kung/scan.cu", or "".
std::string hidden_copy(const fs::path& kit, const std::vector<std::pair<fs::path, fs::path>>& files) {
    std::multimap<std::uintmax_t, fs::path> hidden;  // by size, so most files are never read twice
    for (const char* dir : {"reference", "grader"})
        if (fs::is_directory(kit / dir))
            for (const auto& e : fs::recursive_directory_iterator(kit / dir))
                if (e.is_regular_file() && e.file_size() > 0) hidden.emplace(e.file_size(), e.path());
    for (const auto& [from, to] : files) {
        const auto [first, last] = hidden.equal_range(fs::file_size(from));
        if (first == last) continue;
        const std::string bytes = read_file(from.string());
        for (auto it = first; it != last; ++it)
            if (read_file(it->second.string()) == bytes)
                return to.generic_string() + " is a copy of " + fs::relative(it->second, kit).generic_string();
    }
    return "";
}

}  // namespace

std::vector<std::string> part_files(const std::string& kit, const KitPart& part) {
    const fs::path root = fs::path(kit) / part.from;
    std::vector<std::string> out;
    for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator(); ++it) {
        if (!part.subfolders && it->is_directory()) it.disable_recursion_pending();
        if (!it->is_symlink() && it->is_regular_file()) out.push_back(fs::relative(it->path(), root).generic_string());
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<KitPart> handout_parts() {
    std::vector<KitPart> parts = {
        {"meson.build", "meson.build", false, true},
        {"meson_options.txt", "meson_options.txt", false, true},
        {"scan-labs", "scan-labs", false, false},
        {"course/student/README.md", "README.md", false, false},
        {"course/student/gitignore", ".gitignore", false, false},
        // VS Code's tasks for ./scan-labs test and check: their findings' lines in the Problems panel
        {"course/student/vscode-tasks.json", ".vscode/tasks.json", false, false},
        {"course/github/grade.yml", ".github/workflows/grade.yml", false, false},
        {"labs/README.md", "labs/README.md", false, false},
        {"labs/meson.build", "labs/meson.build", false, true},
        {"labs/targets.json", "labs/targets.json", false, false},  // ./scan-labs check: the rubric, the reference's figures
        {"labs/catalog.txt", "labs/catalog.txt", false, true},      // the one list of labs
        {"labs/common", "labs/common", true, true},
    };
    for (const catalog::Lab& lab : catalog::labs()) {
        for (const char* file : {"scan.cu", "scan.hpp", "lab.cpp"}) {
            const std::string path = "labs/" + lab.id + "/" + file;
            parts.push_back({path, path, false, true});
        }
        parts.push_back({"labs/" + lab.id + "/README.md", "labs/" + lab.id + "/README.md", false, false});
    }
    for (const char* folder : {"datasets", "bench", "simt/include"}) parts.push_back({folder, folder, true, true});
    // The emulator without its own tests (simt/tests: their kernels answer labs 01 and 02).
    parts.push_back({"simt", "simt", true, true, false});
    parts.push_back({"simt/docs", "simt/docs", true, false});  // the emulator's documentation, beside its README
    return parts;
}

std::string kit_path_of(const std::string& repository_path) {
    const fs::path path(repository_path);
    for (const KitPart& part : handout_parts()) {
        if (!part.folder && path == part.to) return part.from;
        if (part.folder && within(path, part.to) && (part.subfolders || path.parent_path() == part.to))
            return (fs::path(part.from) / path.lexically_relative(part.to)).generic_string();
    }
    return repository_path;
}

int export_main(const std::vector<std::string>& args, const std::string& default_kit) {
    std::string kit_arg = default_kit, dir_arg;
    bool force = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& arg = args[i];
        if (arg == "--help" || arg == "-h") {
            std::fputs(kExportUsage, stdout);
            return 0;
        } else if (arg == "--kit" && i + 1 < args.size()) kit_arg = args[++i];
        else if (arg == "--force") force = true;
        else if (!arg.empty() && arg[0] == '-') return usage("unknown option or missing value: " + arg);
        else if (dir_arg.empty()) dir_arg = arg;
        else return usage("more than one DIR given: " + dir_arg + ", " + arg);
    }
    if (dir_arg.empty()) return usage("no DIR given");

    std::error_code ec;
    const fs::path kit = fs::weakly_canonical(kit_arg, ec);
    const std::vector<KitPart> parts = handout_parts();
    for (const KitPart& part : parts)
        if (part.folder ? !fs::is_directory(kit / part.from) : !fs::is_regular_file(kit / part.from))
            return usage("not a scan-labs kit with its course material: " + kit_arg + " has no " + part.from +
                         (part.folder ? "/" : "") + " (--kit)");

    const fs::path dir = fs::weakly_canonical(dir_arg, ec);
    if (ec) return usage("cannot resolve " + dir_arg + ": " + ec.message());
    if (dir == kit) return usage("DIR is the kit itself: " + dir_arg);
    for (const KitPart& part : parts)
        if (part.folder && (dir == kit / part.from || within(dir, kit / part.from)))
            return usage("DIR lies inside the kit's " + part.from + "/, which it copies: " + dir_arg);
    if (fs::exists(dir) && !fs::is_directory(dir)) {
        std::fprintf(stderr, "scan-grade export: cannot write %s: it exists and is not a folder\n", dir_arg.c_str());
        return 1;
    }
    if (!force && fs::is_directory(dir) && !fs::is_empty(dir))
        return usage(dir_arg + " is not empty (--force replaces the repository's own files there)");

    std::size_t count = 0;
    try {
        const auto files = files_of(kit, parts);
        if (const std::string copy = hidden_copy(kit, files); !copy.empty()) {
            std::fprintf(stderr, "scan-grade export: refused, nothing written: %s\n", copy.c_str());
            return 1;
        }
        fs::create_directories(dir);
        for (const KitPart& part : parts) fs::remove_all(dir / part.to);  // --force: no stale files in a part
        for (const auto& [from, to] : files) {
            fs::create_directories((dir / to).parent_path());
            fs::copy_file(from, dir / to, fs::copy_options::overwrite_existing);  // with its permissions
            ++count;
        }
    } catch (const fs::filesystem_error& e) {
        std::fprintf(stderr, "scan-grade export: cannot write %s: %s\n", dir_arg.c_str(), e.what());
        return 1;
    }
    std::printf("scan-grade export: wrote the student repository, %zu files, to %s\n"
                "  labs/ datasets/ simt/ bench/ meson.build meson_options.txt scan-labs README.md .gitignore\n"
                "  .vscode/tasks.json\n"
                "  .github/workflows/grade.yml (set SCAN_LABS_KIT and the secrets: course/github/README.md)\n",
                count, dir_arg.c_str());
    return 0;
}

}  // namespace grader
