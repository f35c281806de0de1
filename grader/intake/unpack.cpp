#include "grader/intake/unpack.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>

#ifdef HAVE_LIBARCHIVE
#include <archive.h>
#include <archive_entry.h>
#endif

#include "grader/core/files.hpp"

namespace fs = std::filesystem;

namespace grader {
namespace {

bool ends_with(const std::string& s, const std::string& tail) {
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// Folders the grader never reads: builds, version control, editors' and
// tools' caches, and the grader's own folders.
bool never_read_folder(const std::string& name) {
    static const char* const names[] = {".git", ".svn", ".hg", "__MACOSX", "node_modules", ".cache", ".ccache",
                                        "__pycache__", ".venv", "venv", ".vs", ".idea", "scan-grade-work",
                                        "scan-grade-results", "CMakeFiles"};
    const std::string l = lower_case(name);
    if (l.rfind("build", 0) == 0 || l.rfind("cmake-build-", 0) == 0 || l == "out" || l == "bin" || l == "obj")
        return true;
    return std::find(std::begin(names), std::end(names), name) != std::end(names);
}

// Compiled files and tools' reports, by name or by their first bytes (ELF,
// Mach-O): never source a lab is graded on.
bool never_read_file(const std::string& name, const std::string& head) {
    static const char* const extensions[] = {".o", ".obj", ".a", ".so", ".dylib", ".dll", ".exe", ".lib", ".pdb",
                                             ".out", ".bin", ".cubin", ".fatbin", ".ncu-rep", ".nsys-rep", ".qdrep",
                                             ".sqlite", ".pyc", ".ninja_deps", ".ninja_log", ".deb", ".gch", ".pch"};
    const std::string l = lower_case(name);
    for (const char* e : extensions)
        if (ends_with(l, e)) return true;
    if (l.find(".so.") != std::string::npos) return true;
    static const std::string magics[] = {std::string("\x7f" "ELF", 4), std::string("\xcf\xfa\xed\xfe", 4),
                                         std::string("\xce\xfa\xed\xfe", 4)};
    for (const std::string& m : magics)
        if (head.compare(0, m.size(), m) == 0) return true;
    return false;
}

// The first never-read folder of a relative path ("build/" of
// "build/labs/x.o"), "" where there is none.
std::string never_read_prefix(const fs::path& rel) {
    fs::path prefix;
    for (const auto& part : rel.parent_path()) {
        prefix /= part;
        if (never_read_folder(part.string())) return prefix.generic_string() + "/";
    }
    return "";
}

// What was left out, and the bytes of what was kept by folder, for the messages.
struct Tally {
    std::map<std::string, std::size_t> folders;  // left-out folder -> entries in it
    std::vector<std::string> files;               // left-out compiled files
    std::map<std::string, std::uintmax_t> kept;   // folder (up to two levels) -> bytes kept there
    std::uintmax_t bytes = 0;
    std::size_t entries = 0;
    bool over = false;

    // Whether a file of `size` bytes fits; either way it counts towards the folders' sizes.
    bool keep(const fs::path& rel, std::uintmax_t size) {
        fs::path folder;
        int depth = 0;
        for (const auto& part : rel.parent_path())
            if (depth++ < 2) folder /= part;
        kept[folder.empty() ? "(the top)" : folder.generic_string() + "/"] += size;
        bytes += size;
        ++entries;
        over = over || entries > kMaxEntries || bytes > kMaxBytes;
        return !over;
    }

    Unpacked unpacked() const {
        Unpacked u;
        for (const auto& [folder, n] : folders)
            u.left_out.push_back(folder + " (" + std::to_string(n) + " entries: a build, version-control or cache folder)");
        if (!files.empty()) {
            std::string list;
            for (std::size_t i = 0; i < files.size() && i < 3; ++i) list += (i ? ", " : "") + files[i];
            u.left_out.push_back(std::to_string(files.size()) + " object file(s) and binaries (" + list +
                                 (files.size() > 3 ? ", ..." : "") + ")");
        }
        return u;
    }

    // The refusal once over a limit: the largest folders kept, and what to do.
    SubmissionError too_large(const std::string& what) const {
        const auto size = [](std::uintmax_t b) {
            char text[32];
            if (b >= (1 << 20)) std::snprintf(text, sizeof text, "%.1f MiB", static_cast<double>(b) / (1 << 20));
            else std::snprintf(text, sizeof text, "%.0f KiB", static_cast<double>(b) / 1024);
            return std::string(text);
        };
        std::vector<std::pair<std::uintmax_t, std::string>> by_size;
        for (const auto& [folder, bytes_there] : kept) by_size.push_back({bytes_there, folder});
        std::sort(by_size.rbegin(), by_size.rend());
        std::string largest;
        for (std::size_t i = 0; i < by_size.size() && i < 3; ++i)
            largest += std::string(i ? ", " : "") + by_size[i].second + " " + size(by_size[i].first);
        const std::string total = size(bytes) + " in " + std::to_string(entries) + (entries == 1 ? " file" : " files");
        return SubmissionError(
            "too large", what + " holds more than the grader reads (64 MiB or 20000 files; build folders, .git, object "
                                "files and binaries are left out already): " + total + "; the largest folders: " +
                             largest + ". Submit the labs/NN-name/scan.cu files (and headers they include), or "
                             "leave those folders out.");
    }
};

void copy_folder(const fs::path& from, const fs::path& to, Tally& tally) {
    for (auto it = fs::recursive_directory_iterator(from); it != fs::recursive_directory_iterator(); ++it) {
        const fs::file_status st = it->symlink_status();
        const fs::path rel = fs::relative(it->path(), from);
        if (fs::is_directory(st) && never_read_folder(it->path().filename().string())) {
            std::size_t n = 0;
            for (auto inner = fs::recursive_directory_iterator(it->path()); inner != fs::recursive_directory_iterator() && n < 1000000; ++inner) ++n;
            tally.folders[rel.generic_string() + "/"] = n;
            it.disable_recursion_pending();
            continue;
        }
        if (!fs::is_regular_file(st)) continue;  // links could point at anything
        std::string head(4, '\0');
        {
            std::ifstream in(it->path(), std::ios::binary);
            in.read(head.data(), 4);
            head.resize(static_cast<std::size_t>(std::max<std::streamsize>(0, in.gcount())));
        }
        if (never_read_file(rel.filename().string(), head)) {
            tally.files.push_back(rel.generic_string());
            continue;
        }
        if (!tally.keep(rel, it->file_size())) continue;  // go on counting, for the message
        const fs::path dest = to / rel;
        fs::create_directories(dest.parent_path());
        fs::copy_file(it->path(), dest, fs::copy_options::overwrite_existing);
    }
    if (tally.over) throw tally.too_large("the folder " + from.filename().string());
}

#ifdef HAVE_LIBARCHIVE
// libarchive's message for the last error, which may be null (none set).
std::string error_of(archive* a) {
    const char* message = archive_error_string(a);
    return message ? message : "no reason given by libarchive";
}

struct Reader {
    archive* a = archive_read_new();
    // Every archive format, but none that takes any text for an archive
    // (mtree, raw): a stray notes.txt is no submission.
    Reader() {
        archive_read_support_filter_all(a);
        for (auto support : {archive_read_support_format_zip, archive_read_support_format_tar,
                             archive_read_support_format_gnutar, archive_read_support_format_7zip,
                             archive_read_support_format_rar, archive_read_support_format_rar5,
                             archive_read_support_format_cpio, archive_read_support_format_iso9660,
                             archive_read_support_format_xar, archive_read_support_format_lha,
                             archive_read_support_format_cab})
            support(a);
    }
    ~Reader() { archive_read_free(a); }
};

void unpack_archive(const fs::path& archive_path, const fs::path& to, Tally& tally) {
    const std::string name = archive_path.filename().string();
    Reader r;
    if (archive_read_open_filename(r.a, archive_path.c_str(), 1 << 16) != ARCHIVE_OK)
        throw SubmissionError("unreadable", "cannot open " + name + " as an archive: " + error_of(r.a));
    archive_entry* entry = nullptr;
    std::size_t seen = 0;
    for (int rc; (rc = archive_read_next_header(r.a, &entry)) != ARCHIVE_EOF;) {
        if (rc != ARCHIVE_OK && rc != ARCHIVE_WARN)
            throw SubmissionError("unreadable", name + " is corrupt: " + error_of(r.a));
        if (++seen > 20 * kMaxEntries) break;  // enough to name the largest folders
        const char* pathname = archive_entry_pathname(entry);  // null: no name, or none this locale can spell
        if (pathname == nullptr) continue;
        const fs::path rel = fs::path(pathname).lexically_normal();
        if (rel.is_absolute() || rel.empty() || *rel.begin() == "..") continue;  // never outside `to`
        if (const std::string skipped = never_read_prefix(archive_entry_filetype(entry) == AE_IFDIR ? rel / "x" : rel);
            !skipped.empty()) {
            ++tally.folders[skipped];
            continue;
        }
        if (archive_entry_filetype(entry) != AE_IFREG) continue;
        const std::uintmax_t declared =
            archive_entry_size_is_set(entry) ? static_cast<std::uintmax_t>(std::max<la_int64_t>(0, archive_entry_size(entry))) : 0;
        if (never_read_file(rel.filename().string(), "")) {
            tally.files.push_back(rel.generic_string());
            continue;
        }
        if (tally.over) {  // refused already: its size counts for the message, its data is skipped
            tally.keep(rel, declared);
            continue;
        }
        std::string content;
        char buffer[65536];
        for (la_ssize_t got; content.size() <= kMaxBytes && (got = archive_read_data(r.a, buffer, sizeof buffer)) != 0;) {
            if (got < 0) throw SubmissionError("unreadable", name + " is corrupt: " + error_of(r.a));
            content.append(buffer, static_cast<std::size_t>(got));
        }
        if (never_read_file(rel.filename().string(), content.substr(0, 4))) {
            tally.files.push_back(rel.generic_string());
            continue;
        }
        if (!tally.keep(rel, std::max<std::uintmax_t>(declared, content.size()))) continue;
        fs::create_directories((to / rel).parent_path());
        std::ofstream(to / rel, std::ios::binary) << content;
    }
    if (tally.over) throw tally.too_large(name);
}
#endif

}  // namespace

std::size_t archive_extension(const std::string& file_name) {
    static const char* const extensions[] = {".tar.gz", ".tar.bz2", ".tar.xz", ".tar.zst", ".tar.lz", ".tar.lzma",
                                             ".tar.z",  ".tgz",     ".tbz",    ".tbz2",    ".txz",    ".tzst",
                                             ".tar",    ".zip",     ".7z",     ".rar",     ".cpio",   ".iso"};
    const std::string l = lower_case(file_name);
    for (const char* e : extensions)
        if (l.size() > std::char_traits<char>::length(e) && ends_with(l, e)) return std::char_traits<char>::length(e);
    return 0;
}

bool cu_file_name(const std::string& file_name) {
    const std::string l = lower_case(file_name);
    return l.size() > 3 && ends_with(l, ".cu");
}

bool readable_archive(const fs::path& file) {
#ifdef HAVE_LIBARCHIVE
    Reader r;
    archive_entry* entry = nullptr;
    // A zip's central directory may be all it has: an empty archive is still one.
    if (archive_read_open_filename(r.a, file.c_str(), 1 << 16) != ARCHIVE_OK) return false;
    const int rc = archive_read_next_header(r.a, &entry);
    return rc == ARCHIVE_OK || rc == ARCHIVE_WARN || (rc == ARCHIVE_EOF && archive_format(r.a) != 0);
#else
    (void)file;
    return false;
#endif
}

Unpacked unpack_into(const fs::path& source, const fs::path& to) {
    std::error_code ec;
    if (!fs::exists(source, ec)) throw SubmissionError("unreadable", "no such submission: " + source.string());
    fs::remove_all(to, ec);
    fs::create_directories(to);
    Tally tally;
    const std::string name = source.filename().string();
    if (fs::is_directory(source)) copy_folder(source, to, tally);
    else if (cu_file_name(name)) {
        if (!tally.keep(name, fs::file_size(source))) throw tally.too_large(name);
        fs::copy_file(source, to / name);
    } else {
#ifdef HAVE_LIBARCHIVE
        unpack_archive(source, to, tally);
#else
        throw SubmissionError("unreadable", "this scan-grade was built without libarchive, so it reads folders only: "
                                            "unpack " + name + " and pass the folder");
#endif
    }
    if (tally.entries == 0) {
        const Unpacked u = tally.unpacked();
        std::string left;
        for (const std::string& l : u.left_out) left += (left.empty() ? "" : ", ") + l;
        throw SubmissionError("empty", name + (fs::is_directory(source) ? " is an empty folder" : " is empty") +
                                           (left.empty() ? ": it holds no files" : ": it holds only what the grader never reads: " + left));
    }
    return tally.unpacked();
}

}  // namespace grader
