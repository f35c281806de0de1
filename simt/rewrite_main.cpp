// simt-rewrite INPUT.cu OUTPUT.cpp [--shim-dir DIR]: the build step that turns
// a lab's .cu into C++ for the emulator (see rewrite.hpp). A file that uses
// what the emulator cannot run (limits.hpp, with DIR the emulator's include
// folder) becomes a marker instead, naming each such construct, and each is
// reported as a warning on its line: its lab is then skipped on the emulator,
// not failed (labs/common/device_emu.cpp). An #include of a header the
// emulator lacks that the code does not use is blanked instead, with a note.
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

#include "limits.hpp"
#include "rewrite.hpp"

int main(int argc, char** argv) {
    std::string shim_dir;
    if (argc == 5 && std::strcmp(argv[3], "--shim-dir") == 0) shim_dir = argv[4];
    else if (argc != 3) {
        std::fprintf(stderr, "usage: simt-rewrite INPUT.cu OUTPUT.cpp [--shim-dir DIR]\n");
        return 2;
    }
    std::ifstream in(argv[1]);
    if (!in) {
        std::fprintf(stderr, "simt-rewrite: cannot open %s\n", argv[1]);
        return 1;
    }
    std::stringstream text;
    text << in.rdbuf();
    try {
        const std::vector<simt::Limit> limits =
            shim_dir.empty() ? std::vector<simt::Limit>{} : simt::find_limits(text.str(), shim_dir);
        std::string out;
        if (limits.empty()) {
            const std::vector<simt::Limit> unused =
                shim_dir.empty() ? std::vector<simt::Limit>{} : simt::unused_includes(text.str(), shim_dir);
            for (const simt::Limit& l : unused)
                std::fprintf(stderr, "%s:%d: note: unused %s left out on the emulator, which does not provide it\n", argv[1],
                             l.line, l.written.c_str());
            out = simt::rewrite(simt::without_includes(text.str(), unused), argv[1]);
        } else {
            for (const simt::Limit& l : limits)
                std::fprintf(stderr, "%s:%d: warning: %s is beyond the CPU emulator (the kit's limit, not a bug in "
                                     "your code): this lab's tests are skipped here and run on a GPU\n",
                             argv[1], l.line, simt::describe(l).c_str());
            out = simt::limits_marker(argv[1], limits);
        }
        std::ofstream(argv[2]) << out;
    } catch (const simt::RewriteError& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 1;
    }
    return 0;
}
