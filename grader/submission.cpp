#include "submission.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#ifdef HAVE_LIBARCHIVE
#include <archive.h>
#include <archive_entry.h>
#endif

#include "catalog.hpp"
#include "export.hpp"
#include "files.hpp"

namespace fs = std::filesystem;

namespace grader {

const char* const kLayouts =
    "labs/NN-name/scan.cu (a copy of the student tree), NN-name/scan.cu, or NN-name.cu / labNN.cu at the top";

namespace {

constexpr std::uintmax_t kMaxBytes = 64ull << 20;
constexpr std::size_t kMaxEntries = 20000;

bool skipped_dir(const std::string& name) { return name == ".git" || name.rfind("build", 0) == 0; }

void copy_folder(const fs::path& from, const fs::path& to) {
    std::uintmax_t bytes = 0;
    std::size_t entries = 0;
    for (auto it = fs::recursive_directory_iterator(from); it != fs::recursive_directory_iterator(); ++it) {
        const fs::file_status st = it->symlink_status();
        if (fs::is_directory(st) && skipped_dir(it->path().filename().string())) {
            it.disable_recursion_pending();
            continue;
        }
        if (!fs::is_regular_file(st)) continue;  // links could point at anything
        bytes += it->file_size();
        if (++entries > kMaxEntries || bytes > kMaxBytes)
            throw SubmissionError("the submission is too large (more than 64 MiB or 20000 files)");
        const fs::path dest = to / fs::relative(it->path(), from);
        fs::create_directories(dest.parent_path());
        fs::copy_file(it->path(), dest, fs::copy_options::overwrite_existing);
    }
}

#ifdef HAVE_LIBARCHIVE
// libarchive's message for the last error, which may be null (none set).
std::string error_of(archive* a) {
    const char* message = archive_error_string(a);
    return message ? message : "no reason given by libarchive";
}

void unpack(const fs::path& archive_path, const fs::path& to) {
    archive* a = archive_read_new();
    archive_read_support_filter_all(a);
    archive_read_support_format_zip(a);
    archive_read_support_format_tar(a);
    archive_read_support_format_gnutar(a);
    struct Closer {
        archive* a;
        ~Closer() { archive_read_free(a); }
    } closer{a};
    if (archive_read_open_filename(a, archive_path.c_str(), 1 << 16) != ARCHIVE_OK)
        throw SubmissionError("cannot open " + archive_path.string() + ": " + error_of(a));
    std::uintmax_t bytes = 0;
    std::size_t entries = 0;
    archive_entry* entry = nullptr;
    for (int rc; (rc = archive_read_next_header(a, &entry)) != ARCHIVE_EOF;) {
        if (rc != ARCHIVE_OK && rc != ARCHIVE_WARN)
            throw SubmissionError(archive_path.filename().string() + " is corrupt: " + error_of(a));
        if (++entries > kMaxEntries) throw SubmissionError("the archive has more than 20000 entries");
        const char* pathname = archive_entry_pathname(entry);  // null: no name, or none this locale can spell
        if (archive_entry_filetype(entry) != AE_IFREG || pathname == nullptr) continue;
        const fs::path name = fs::path(pathname).lexically_normal();
        if (name.is_absolute() || name.empty() || *name.begin() == "..") continue;  // never outside `to`
        std::string content;
        char buffer[65536];
        for (la_ssize_t got; (got = archive_read_data(a, buffer, sizeof buffer)) != 0;) {
            if (got < 0) throw SubmissionError(archive_path.filename().string() + " is corrupt: " + error_of(a));
            bytes += static_cast<std::uintmax_t>(got);
            if (bytes > kMaxBytes) throw SubmissionError("the archive unpacks to more than 64 MiB");
            content.append(buffer, static_cast<std::size_t>(got));
        }
        fs::create_directories((to / name).parent_path());
        std::ofstream(to / name, std::ios::binary) << content;
    }
}
#endif

// The lab a file belongs to, by the accepted layouts; "" if none.
std::string lab_of(const fs::path& rel) {
    const std::string file = rel.filename().string(), parent = rel.parent_path().filename().string();
    for (const auto& lab : catalog::labs()) {
        if (file == "scan.cu" && parent == lab.id && rel.string().find("reference/") == std::string::npos) return lab.id;
        if (rel.parent_path().empty() && (file == lab.id + ".cu" || file == lab.suite + ".cu")) return lab.id;
    }
    return "";
}

}  // namespace

Submission open_submission(const std::string& path, const std::string& unpack_dir, const std::string& kit) {
    const fs::path source(path);
    std::error_code ec;
    if (!fs::exists(source, ec)) throw SubmissionError("no such submission: " + path);
    fs::remove_all(unpack_dir, ec);
    fs::create_directories(unpack_dir);
    Submission s;
    s.name = submission_name(source.filename().string());
    if (fs::is_directory(source)) copy_folder(source, unpack_dir);
    else {
#ifdef HAVE_LIBARCHIVE
        unpack(source, unpack_dir);
#else
        throw SubmissionError("this scan-grade was built without libarchive, so it reads folders only: unpack " + path +
                              " and pass the folder");
#endif
    }
    // A single top folder (an archive of "scan-labs-main/...") is the root.
    fs::path root = unpack_dir;
    for (;;) {
        std::vector<fs::path> children;
        for (const auto& e : fs::directory_iterator(root)) children.push_back(e.path());
        if (children.size() != 1 || !fs::is_directory(children[0]) || lab_of(children[0].filename() / "scan.cu") != "") break;
        root = children[0];
    }
    for (const auto& e : fs::recursive_directory_iterator(root)) {
        if (!e.is_regular_file()) continue;
        const fs::path rel = fs::relative(e.path(), root);
        const std::string lab = lab_of(rel);
        if (!lab.empty() && (!s.files.count(lab) || rel.string().rfind("labs/", 0) == 0)) {
            s.files[lab] = e.path().string();
            continue;
        }
        // Classroom 50's marker, which `gh student accept` commits: no file of the student's.
        if (rel == ".classroom50.yaml") continue;
        const fs::path in_kit = fs::path(kit) / kit_path_of(rel.generic_string());  // README.md: the student one
        if (!fs::is_regular_file(in_kit) || read_file(in_kit) != read_file(e.path())) s.ignored.push_back(rel.string());
    }
    std::sort(s.ignored.begin(), s.ignored.end());
    return s;
}

std::string submission_name(const std::string& file_name) {
    for (const std::string ext : {".tar.gz", ".tgz", ".zip"})
        if (file_name.size() > ext.size() && file_name.compare(file_name.size() - ext.size(), std::string::npos, ext) == 0)
            return file_name.substr(0, file_name.size() - ext.size());
    return file_name;
}

std::vector<fs::path> batch_entries(const fs::path& folder) {
    std::vector<fs::path> out;
    for (const auto& e : fs::directory_iterator(folder)) {
        const std::string name = e.path().filename().string();
        const auto ends = [&](const std::string& ext) {
            return name.size() > ext.size() && name.compare(name.size() - ext.size(), ext.size(), ext) == 0;
        };
        if (name[0] != '.' && (e.is_directory() || ends(".zip") || ends(".tar.gz") || ends(".tgz"))) out.push_back(e.path());
    }
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace grader
