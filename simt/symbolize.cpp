// Code address -> "file.cu:line", for reports, through binutils' addr2line on
// this executable's debug information (the student's file is compiled with -g).
#include <dlfcn.h>
#include <elf.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <memory>

#include "internal.hpp"

namespace simt::detail {
namespace {

// Position-independent executables (Debian's default) want offsets from the
// load address, others absolute addresses.
bool executable_is_pie() {
    Elf64_Ehdr header{};
    std::ifstream exe("/proc/self/exe", std::ios::binary);
    exe.read(reinterpret_cast<char*>(&header), sizeof header);
    return exe && header.e_type == ET_DYN;
}

// This executable's path: "/proc/self/exe" would name addr2line in its shell.
std::string executable_path() {
    char path[4096];
    const ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
    return n > 0 ? std::string(path, static_cast<std::size_t>(n)) : std::string();
}

}  // namespace

std::string source_line(const void* pc) {
    static std::map<const void*, std::string> cache;
    static const bool pie = executable_is_pie();
    static const std::string exe = executable_path();
    if (const auto it = cache.find(pc); it != cache.end()) return it->second;

    std::string result = "?";
    Dl_info info{};
    if (!exe.empty() && exe.find('\'') == std::string::npos && dladdr(pc, &info) != 0) {
        // The return address points after the call: step back into it.
        auto address = reinterpret_cast<std::uintptr_t>(pc) - 1;
        if (pie) address -= reinterpret_cast<std::uintptr_t>(info.dli_fbase);
        char hex[32];
        std::snprintf(hex, sizeof hex, "0x%llx", static_cast<unsigned long long>(address));
        const std::string command = "addr2line -e '" + exe + "' " + hex + " 2>/dev/null";
        std::unique_ptr<FILE, int (*)(FILE*)> out(popen(command.c_str(), "r"), &pclose);
        char line[4096];
        if (out && std::fgets(line, sizeof line, out.get())) {
            std::string text = line;
            text = text.substr(0, text.find_first_of(" \n"));  // drop " (discriminator N)"
            const auto colon = text.rfind(':');
            if (colon != std::string::npos && text.find("??") == std::string::npos) {
                const auto slash = text.rfind('/', colon);
                result = slash == std::string::npos ? text : text.substr(slash + 1);
                // A line-table entry under the default file register (the
                // first functions of the object, before any other file was
                // named) is DWARF 5's file 1, the .cu of the rewriter's #line;
                // binutils 2.40's addr2line reads it as file 0, the generated
                // X.emu.cpp, whose lines are the .cu's (it adds none).
                if (const auto emu = result.rfind(".emu.cpp:"); emu != std::string::npos)
                    result = result.substr(0, emu) + ".cu" + result.substr(emu + 8);
            }
        }
    }
    return cache[pc] = result;
}

}  // namespace simt::detail
