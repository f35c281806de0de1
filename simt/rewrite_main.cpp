// simt-rewrite INPUT.cu OUTPUT.cpp: the build step that turns a lab's .cu into
// C++ for the emulator (see rewrite.hpp).
#include <cstdio>
#include <fstream>
#include <sstream>

#include "rewrite.hpp"

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: simt-rewrite INPUT.cu OUTPUT.cpp\n");
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
        const std::string out = simt::rewrite(text.str(), argv[1]);
        std::ofstream(argv[2]) << out;
    } catch (const simt::RewriteError& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 1;
    }
    return 0;
}
