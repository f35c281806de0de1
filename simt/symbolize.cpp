// Code address -> "file.cu:line" and its column, for reports, from the debug
// information of the executable or shared module holding it (the student's
// file is compiled with -g; scan-run loads a lab as a module): through
// elfutils' libdw, in this process, where the build has it; else through
// binutils' addr2line, a process a line, which prints no column.
#include <dlfcn.h>
#include <elf.h>
#include <sys/auxv.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <system_error>
#include <thread>

#if SIMT_HAVE_LIBDW
#include <elfutils/libdwfl.h>
#endif

#include "internal.hpp"
#include "simt/launch.hpp"

namespace simt::detail {
namespace {

// Whether `path` is a position-independent ELF object (a PIE executable, as
// Debian builds by default, or a shared module), whose addresses addr2line
// wants as offsets from its load address; others want absolute ones.
bool position_independent(const std::string& path) {
    Elf64_Ehdr header{};
    std::ifstream file(path, std::ios::binary);
    file.read(reinterpret_cast<char*>(&header), sizeof header);
    return file && header.e_type == ET_DYN;
}

// This executable's path: "/proc/self/exe" would name addr2line in its shell.
std::string executable_path() {
    char path[4096];
    const ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
    return n > 0 ? std::string(path, static_cast<std::size_t>(n)) : std::string();
}

// The file holding `info`'s address: the executable's own path for its code,
// the module's (as dlopen was given it) for a module's.
std::string object_path(const Dl_info& info) {
    static const std::string exe = executable_path();
    // The executable's program headers lie in its first mapping (this
    // function may be a module's copy of the emulator: not its address).
    static const void* exe_base = [] {
        Dl_info self{};
        return dladdr(reinterpret_cast<const void*>(getauxval(AT_PHDR)), &self) != 0 ? self.dli_fbase : nullptr;
    }();
    return info.dli_fbase == exe_base || info.dli_fname == nullptr ? exe : std::string(info.dli_fname);
}

// position_independent(object), read once an object.
bool pie_of(const std::string& object) {
    static std::map<std::string, bool> pie;
    const auto it = pie.find(object);
    if (it != pie.end()) return it->second;
    return pie[object] = position_independent(object);
}

std::string base_name(const std::string& path) {
    const auto slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

// The .cu a line-table file name stands for, as reports name it: its base
// name. A line-table entry under the default file register (the first
// functions of the object, before any other file was named) is DWARF 5's
// file 1, the .cu of the rewriter's #line; binutils 2.40's addr2line reads it
// as file 0, the generated X.emu.cpp, whose lines are the .cu's (it adds none).
std::string cu_file(const std::string& path) {
    const std::string file = base_name(path);
    const std::string generated = ".emu.cpp";
    if (file.size() > generated.size() && file.compare(file.size() - generated.size(), generated.size(), generated) == 0)
        return file.substr(0, file.size() - generated.size()) + ".cu";
    return file;
}

// What note_kept_columns was told: (object file, file name) -> line ->
// columns kept as written; a line absent kept all of them.
struct Kept {
    bool none = false;  // the rewriter could not keep the file's lines
    std::map<unsigned, unsigned> lines;
};
std::map<std::pair<std::string, std::string>, Kept>& kept_columns() {
    static std::map<std::pair<std::string, std::string>, Kept> kept;  // filled while statics are made
    return kept;
}

#if SIMT_HAVE_LIBDW
// The line-table entry libdw reads for `pc` in `object` (loaded at `base`):
// its file, line and column (0 where none). False where it has none.
bool dwarf_line_here(const std::string& object, const void* base, std::uintptr_t pc, std::string& file,
                     unsigned& line, unsigned& column) {
    static std::mutex mutex;
    static std::map<std::string, Dwfl*> opened;  // kept for the process's life
    std::lock_guard<std::mutex> lock(mutex);
    Dwfl*& dwfl = opened[object];
    if (dwfl == nullptr) {
        static const Dwfl_Callbacks callbacks = {nullptr, dwfl_standard_find_debuginfo, dwfl_offline_section_address,
                                                 nullptr};
        dwfl = dwfl_begin(&callbacks);
        if (dwfl == nullptr) return false;
        dwfl_report_begin(dwfl);
        const auto at = pie_of(object) ? reinterpret_cast<GElf_Addr>(base) : 0;
        if (dwfl_report_elf(dwfl, object.c_str(), object.c_str(), -1, at, false) == nullptr) return false;
        dwfl_report_end(dwfl, nullptr, nullptr);
    }
    Dwfl_Line* found = dwfl_getsrc(dwfl, pc);
    int lineno = 0, col = 0;
    const char* name = found ? dwfl_lineinfo(found, nullptr, &lineno, &col, nullptr, nullptr) : nullptr;
    if (name == nullptr) return false;
    file = cu_file(name);
    line = lineno > 0 ? static_cast<unsigned>(lineno) : 0;
    column = col > 0 && lineno > 0 ? static_cast<unsigned>(col) : 0;
    return true;
}

// dwarf_line_here on a thread of its own: a report is made on the GPU
// thread's fiber, whose 64 KiB stack a lookup overflows. False where no
// thread can be had.
bool dwarf_line(const std::string& object, const void* base, std::uintptr_t pc, std::string& file, unsigned& line,
                unsigned& column) {
    bool found = false;
    try {
        std::thread([&] { found = dwarf_line_here(object, base, pc, file, line, column); }).join();
    } catch (const std::system_error&) {
        return false;
    }
    return found;
}
#endif

// binutils' addr2line on `object` for the return address `pc` ("?" where it
// finds nothing): a process of its own, so only where libdw is missing or
// found nothing.
std::string addr2line(const std::string& object, const Dl_info& info, const void* pc) {
    if (object.find('\'') != std::string::npos) return "?";
    auto address = reinterpret_cast<std::uintptr_t>(pc) - 1;
    if (pie_of(object)) address -= reinterpret_cast<std::uintptr_t>(info.dli_fbase);
    char hex[32];
    std::snprintf(hex, sizeof hex, "0x%llx", static_cast<unsigned long long>(address));
    const std::string command = "addr2line -e '" + object + "' " + hex + " 2>/dev/null";
    std::unique_ptr<FILE, int (*)(FILE*)> out(popen(command.c_str(), "r"), &pclose);
    char line[4096];
    if (!out || !std::fgets(line, sizeof line, out.get())) return "?";
    std::string text = line;
    text = text.substr(0, text.find_first_of(" \n"));  // drop " (discriminator N)"
    const auto colon = text.rfind(':');
    if (colon == std::string::npos || text.find("??") != std::string::npos) return "?";
    return cu_file(text.substr(0, colon)) + text.substr(colon);
}

// What a code address stands for, read once: "file:line" and the column.
struct Location {
    std::string line = "?";
    unsigned column = 0;
};

const Location& locate(const void* pc) {
    static std::map<const void*, Location> cache;
    if (const auto it = cache.find(pc); it != cache.end()) return it->second;
    Location& at = cache[pc];
    Dl_info info{};
    if (dladdr(pc, &info) == 0) return at;
    const std::string object = object_path(info);
    if (object.empty()) return at;
#if SIMT_HAVE_LIBDW
    std::string file;
    unsigned line = 0, column = 0;
    // The return address points after the call: step back into it.
    if (dwarf_line(object, info.dli_fbase, reinterpret_cast<std::uintptr_t>(pc) - 1, file, line, column)) {
        at.line = file + ":" + (line > 0 ? std::to_string(line) : std::string("?"));
        // The column only where the rewriter left the line as written up to it.
        const auto kept = kept_columns().find({object, file});
        if (column != 0 && kept != kept_columns().end()) {
            const auto changed = kept->second.lines.find(line);
            if (kept->second.none || (changed != kept->second.lines.end() && column - 1 > changed->second)) column = 0;
        }
        at.column = column;
        return at;
    }
#endif
    at.line = addr2line(object, info, pc);
    return at;
}

}  // namespace

std::string source_line(const void* pc) { return locate(pc).line; }

unsigned source_column(const void* pc) { return locate(pc).column; }

}  // namespace simt::detail

namespace simt {

bool note_kept_columns(const char* file, const unsigned* kept) {
    Dl_info info{};
    if (dladdr(kept, &info) == 0) return false;
    detail::Kept& k = detail::kept_columns()[{detail::object_path(info), detail::base_name(file)}];
    if (kept[0] == ~0u) {
        k.none = true;
        return true;
    }
    for (; kept[0] != 0; kept += 2) k.lines[kept[0]] = kept[1];
    return true;
}

}  // namespace simt
