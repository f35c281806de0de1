#include "limits.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <regex>
#include <set>
#include <sstream>

#include "source_text.hpp"

namespace simt {
namespace {

// Names the emulator does not model, each with the construct it belongs to.
// A name counts where it stands as a word of program text (not in a comment
// or string); `prefix` names count for every word they begin.
struct Word {
    const char* name;
    const char* construct;
    bool prefix = false;
};
constexpr const char* kTextures = "textures and surfaces";
constexpr const char* kGraphs = "CUDA graphs";
constexpr const char* kPitched = "pitched and 3D memory";
constexpr const char* kClusters = "thread block clusters";
constexpr const char* kAsync = "asynchronous copies and barriers";
const Word kWords[] = {
    {"asm", "inline PTX"},
    {"__asm__", "inline PTX"},
    {"__asm", "inline PTX"},
    {"tex1D", kTextures, true},  // tex1Dfetch, tex1DLod, tex1DLayered, ...
    {"tex2D", kTextures, true},
    {"tex3D", kTextures, true},
    {"texCubemap", kTextures, true},
    {"surf1D", kTextures, true},
    {"surf2D", kTextures, true},
    {"surf3D", kTextures, true},
    {"surfCubemap", kTextures, true},
    {"cudaTextureObject_t", kTextures},
    {"cudaSurfaceObject_t", kTextures},
    {"cudaCreateTextureObject", kTextures},
    {"cudaCreateSurfaceObject", kTextures},
    {"cudaBindTexture", kTextures, true},
    {"cudaMallocArray", kTextures},
    {"cudaMalloc3DArray", kTextures},
    {"cudaMallocMipmappedArray", kTextures},
    {"cudaCreateChannelDesc", kTextures},
    {"cudaGraph", kGraphs, true},
    {"cudaStreamBeginCapture", kGraphs, true},  // ...ToGraph
    {"cudaStreamEndCapture", kGraphs},
    {"cudaStreamIsCapturing", kGraphs},
    {"cudaStreamGetCaptureInfo", kGraphs, true},
    {"cudaStreamUpdateCaptureDependencies", kGraphs, true},
    {"cudaThreadExchangeStreamCaptureMode", kGraphs},
    {"cudaStreamSetAttribute", "stream attributes"},
    {"cudaStreamGetAttribute", "stream attributes"},
    {"cudaStreamCopyAttributes", "stream attributes"},
    {"__managed__", "managed variables (__managed__)"},
    {"cudaMallocPitch", kPitched},
    {"cudaMalloc3D", kPitched},
    {"cudaMemcpy2D", kPitched, true},
    {"cudaMemcpy3D", kPitched, true},
    {"cudaMemset2D", kPitched, true},
    {"cudaMemset3D", kPitched, true},
    {"__cluster_dims__", kClusters},
    {"cudaLaunchKernelEx", kClusters},
    {"this_cluster", kClusters},
    {"cluster_group", kClusters},
    {"memcpy_async", kAsync},
    {"__pipeline_memcpy_async", kAsync},
    {"cudaMemcpyPeer", "several GPUs", true},
    {"cudaDeviceEnablePeerAccess", "several GPUs"},
    {"cudaIpc", "several GPUs", true},
    // Memory pools beyond the device's default one (cudaMallocFromPoolAsync
    // with cudaDeviceGetDefaultMemPool runs).
    {"cudaMemPoolCreate", "memory pools"},
    {"cudaMemPoolDestroy", "memory pools"},
    {"cudaMemPoolSetAttribute", "memory pools"},
    {"cudaMemPoolGetAttribute", "memory pools"},
    {"cudaMemPoolTrimTo", "memory pools"},
    {"cudaMemPoolSetAccess", "memory pools"},
    {"cudaMemPoolGetAccess", "memory pools"},
    {"cudaMemPoolExport", "memory pools", true},
    {"cudaMemPoolImport", "memory pools", true},
    {"cudaDeviceSetMemPool", "memory pools"},
};

// Namespaces whose every use is a limit: `cub::DeviceScan`.
const Word kNamespaces[] = {
    {"cub", "CUB"},
    {"thrust", "Thrust"},
    {"nvcuda", "warp matrix functions (WMMA)"},
    {"wmma", "warp matrix functions (WMMA)"},
};

// Headers of the CUDA toolkit by what their names begin with; one the
// emulator provides (found under shim_dir) is not a limit. A header counts
// as a limit only where the file uses it: where a word of its program text
// (not a comment or literal; #if lines and macros count) matches `uses`, a
// regular expression over whole words for the names the header declares:
//   - CUB, Thrust, WMMA: their namespace's name (which a qualified name, a
//     using-directive and a namespace alias all write) and their macros'
//     prefix (CUB_, THRUST_);
//   - CUDA's C libraries (cuRAND, cuBLAS, ..., NVRTC, NVTX): their prefix;
//   - half- and low-precision types, asynchronous copies, textures: their
//     types' and functions' names, as far as the kit lists them;
//   - nullptr: none; these declare CUDA's own names (launch parameters,
//     device functions, intrinsics), which the shim declares elsewhere.
// An include no word uses is left out of the emulator's build (its
// directive blanked: unused_includes), so an unused #include cannot take a
// lab off the emulator. A word listed that the header lacks keeps the
// include a limit; a name of the header the list misses fails the
// emulator's build (after the rewriter's note, in a student's build), and
// the grader then grades the lab as if the include were a limit
// (grader/grading/grade.cpp judge_build).
struct Header {
    const char* prefix;
    const char* construct;  // nullptr: "the CUDA header <name>"
    const char* uses;       // nullptr: no word marks a use
};
constexpr const char* kHalfUses =
    "(.*(half|Half|HALF|bfloat|Bfloat|BFLOAT|bf16|BF16|fp8|FP8|fp6|FP6|fp4|FP4|e4m3|e5m2|e2m1|e2m3|e3m2|e8m0).*)"
    "|__h(?!ost__).*|h2.*|h(sqrt|rsqrt|rcp|exp|exp2|exp10|log|log2|log10|sin|cos|tanh|ceil|floor|trunc|rint)"
    "|__nv_.*|CUDART_.*";
constexpr const char* kAsyncUses =
    ".*(barrier|Barrier|pipeline|Pipeline).*|memcpy_async|aligned_size_t|wait|wait_prior|__awbarrier.*|__pipeline.*";
constexpr const char* kTextureUses =
    "(tex|Tex|surf|Surf).*|.*(Texture|Surface|Resource|Channel|AddressMode|FilterMode|ReadMode).*";
const Header kHeaders[] = {
    {"cub/", "CUB", "cub|CUB_.*|Cub.*"},
    {"thrust/", "Thrust", "thrust|THRUST_.*"},
    {"mma.h", "warp matrix functions (WMMA)", "nvcuda|wmma"},
    {"cuda_fp16", "half- and low-precision types", kHalfUses},
    {"cuda_bf16", "half- and low-precision types", kHalfUses},
    {"cuda_fp8", "half- and low-precision types", kHalfUses},
    {"cuda_fp6", "half- and low-precision types", kHalfUses},
    {"cuda_fp4", "half- and low-precision types", kHalfUses},
    {"cuda/barrier", kAsync, kAsyncUses},
    {"cuda/pipeline", kAsync, kAsyncUses},
    {"cuda_pipeline", kAsync, kAsyncUses},
    {"cuda_awbarrier", kAsync, kAsyncUses},
    {"cooperative_groups/memcpy_async", kAsync, kAsyncUses},
    {"curand", "the cuRAND library", "(curand|CURAND).*"},
    {"cublas", "the cuBLAS library", "(cublas|CUBLAS).*"},
    {"cufft", "the cuFFT library", "(cufft|CUFFT).*"},
    {"cusparse", "the cuSPARSE library", "(cusparse|CUSPARSE).*"},
    {"cusolver", "the cuSOLVER library", "(cusolver|CUSOLVER).*"},
    {"npp", "the NPP library", "(npp|Npp|NPP).*"},
    {"nvrtc", "run-time compilation (NVRTC)", "(nvrtc|NVRTC).*"},
    {"texture_", kTextures, kTextureUses},
    {"surface_", kTextures, kTextureUses},
    {"cuda/", nullptr, "cuda|_?CCCL_.*|_LIBCUDACXX_.*"},
    {"nv/", nullptr, "nv|NV_.*"},
    {"nvtx3/", nullptr, "(nvtx|NVTX).*"},
    {"nvToolsExt", nullptr, "(nvtx|NVTX).*"},
    {"crt/", nullptr, nullptr},
    {"cooperative_groups", nullptr, nullptr},
    {"cuda.h", nullptr, "(cu|CU)[A-Z_].*"},
    {"cuda_", nullptr, "cudaOcc.*|cudaGraphics.*|cudaGL.*|cudaEGL.*|cudaD3D.*|cudaVDPAU.*"},
    {"cudaProfiler", nullptr, "cuProfiler.*"},
    {"device_", nullptr, nullptr},
    {"math_", nullptr, "CUDART_.*"},
    {"vector_", nullptr, nullptr},
    {"sm_", nullptr, nullptr},
    {"builtin_types.h", nullptr, nullptr},
    {"driver_types.h", nullptr, nullptr},
    {"host_defines.h", nullptr, nullptr},
    {"channel_descriptor.h", nullptr, kTextureUses},
    {"library_types.h", nullptr, "cudaDataType.*|CUDA_[RC]_.*|libraryPropertyType.*"},
    {"cuComplex.h", nullptr, "cu(Float|Double)?Complex|make_cu.*|cuC[a-z].*"},
    {"nvfunctional", nullptr, "nvstd"},
    {"common_functions.h", nullptr, nullptr},
};

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

bool file_exists(const std::string& path) {
    struct stat st {};
    return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// The kernel launches of a file that uses __CUDA_ARCH__ which its device
// pass cannot see: those the preprocessor removes where __CUDA_ARCH__ is
// defined (#ifndef __CUDA_ARCH__, #if !defined(__CUDA_ARCH__), the #else of
// #ifdef __CUDA_ARCH__), whose kernels the emulator's host pass cannot find
// (rewrite.hpp). Positions of their '<<<'.
std::vector<std::size_t> host_only_launches(const std::string& s, const std::vector<bool>& code) {
    static const std::regex arch(R"(\b__CUDA_ARCH__\b)"), negated(R"(!\s*(defined\s*\(?\s*)?__CUDA_ARCH__)");
    enum Kind { Neutral, Device, Host };
    std::vector<Kind> stack;  // the kind of each open conditional's current branch
    std::vector<std::size_t> out;
    bool arch_used = false;
    for (std::size_t at = 0; at < s.size();) {
        const std::size_t end = std::min(s.find('\n', at), s.size());
        std::size_t i = at;
        while (i < end && (s[i] == ' ' || s[i] == '\t')) ++i;
        if (i < end && s[i] == '#' && code[i]) {
            std::size_t w = i + 1;
            while (w < end && (s[w] == ' ' || s[w] == '\t')) ++w;
            std::size_t we = w;
            while (we < end && text::is_ident(s[we])) ++we;
            const std::string directive = s.substr(w, we - w), rest = s.substr(we, end - we);
            const bool mentions = std::regex_search(rest, arch);
            arch_used = arch_used || mentions;
            if (directive == "ifdef") stack.push_back(mentions ? Device : Neutral);
            else if (directive == "ifndef") stack.push_back(mentions ? Host : Neutral);
            else if (directive == "if") stack.push_back(!mentions ? Neutral : std::regex_search(rest, negated) ? Host : Device);
            else if (directive == "elif" && !stack.empty()) stack.back() = Neutral;
            else if (directive == "else" && !stack.empty())
                stack.back() = stack.back() == Device ? Host : stack.back() == Host ? Device : Neutral;
            else if (directive == "endif" && !stack.empty()) stack.pop_back();
        } else if (std::find(stack.begin(), stack.end(), Host) != stack.end()) {
            for (std::size_t p = s.find("<<<", at); p != std::string::npos && p < end; p = s.find("<<<", p + 3))
                if (code[p]) out.push_back(p);
        }
        at = end + 1;
    }
    return arch_used ? out : std::vector<std::size_t>{};
}

// An #include of a header the emulator does not provide, and whether the
// file uses it (kHeaders).
struct Refused {
    text::Include include;
    const Header* header;
    bool used;
};
std::vector<Refused> refused_includes(const std::string& source, const std::vector<bool>& code, const std::string& shim_dir) {
    std::vector<Refused> out;
    for (const text::Include& include : text::includes(source, code))
        for (const Header& h : kHeaders) {
            if (!starts_with(include.name, h.prefix)) continue;
            if (!file_exists(shim_dir + "/" + include.name)) out.push_back({include, &h, false});
            break;
        }
    if (out.empty()) return out;
    std::set<std::string> words;
    text::for_each_word(source, code, [&](std::size_t i, std::size_t end) { words.insert(source.substr(i, end - i)); });
    for (Refused& r : out) {
        if (!r.header->uses) continue;
        const std::regex uses(r.header->uses);
        r.used = std::any_of(words.begin(), words.end(), [&](const std::string& w) { return std::regex_match(w, uses); });
    }
    return out;
}

Limit include_limit(const Refused& r) {
    const std::string& name = r.include.name;
    return {r.header->construct ? r.header->construct : "a CUDA header the emulator does not provide",
            "#include " + (r.include.angled ? "<" + name + ">" : "\"" + name + "\""), r.include.line};
}

}  // namespace

std::vector<Limit> unused_includes(const std::string& source, const std::string& shim_dir) {
    std::vector<Limit> out;
    for (const Refused& r : refused_includes(source, text::code_mask(source), shim_dir))
        if (!r.used) out.push_back(include_limit(r));
    return out;
}

std::string without_includes(const std::string& source, const std::vector<Limit>& unused) {
    std::string out = source;
    for (const text::Include& include : text::includes(source, text::code_mask(source)))
        for (const Limit& l : unused)
            if (l.line == include.line && l.written.find(include.name) != std::string::npos)
                std::fill(out.begin() + static_cast<long>(include.begin), out.begin() + static_cast<long>(include.end), ' ');
    return out;
}

std::vector<Limit> find_limits(const std::string& source, const std::string& shim_dir) {
    const std::vector<bool> code = text::code_mask(source);
    std::vector<std::pair<std::size_t, Limit>> found;  // (position, limit)
    const auto add = [&](std::size_t pos, const std::string& construct, const std::string& written) {
        const int line = static_cast<int>(text::line_of(source, pos));
        for (const auto& [at, l] : found)
            if (l.line == line && l.construct == construct) return;
        found.push_back({pos, {construct, written, line}});
    };
    for (const Refused& r : refused_includes(source, code, shim_dir))
        if (r.used) add(r.include.begin, include_limit(r).construct, include_limit(r).written);
    text::for_each_word(source, code, [&](std::size_t i, std::size_t end) {
        const std::string word = source.substr(i, end - i);
        if (std::isdigit(static_cast<unsigned char>(word[0]))) return;
        for (const Word& w : kWords)
            if (w.prefix ? starts_with(word, w.name) : word == w.name) {
                add(i, w.construct, word);
                break;
            }
        const std::size_t after = text::skip_space(source, end);
        if (source.compare(after, 2, "::") == 0)
            for (const Word& w : kNamespaces)
                if (word == w.name) add(i, w.construct, word + "::");
    });
    for (const std::size_t pos : host_only_launches(source, code))
        add(pos, "a kernel launch the device pass cannot see (host code under #ifndef __CUDA_ARCH__)", "<<<");
    std::stable_sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<Limit> out;
    for (auto& f : found) out.push_back(std::move(f.second));
    return out;
}

std::vector<Limit> find_library_scans(const std::string& source) {
    struct Scan {
        const char* library;    // the namespace
        const char* construct;  // the rubric's name for it
        std::vector<std::string> names;
    };
    static const Scan kScans[] = {
        {"cub", "CUB", {"DeviceScan", "BlockScan", "WarpScan"}},
        {"thrust", "Thrust",
         {"inclusive_scan", "exclusive_scan", "inclusive_scan_by_key", "exclusive_scan_by_key",
          "transform_inclusive_scan", "transform_exclusive_scan"}},
    };
    static const std::regex using_cub(R"(\busing\s+namespace\s+(::\s*)?cub\s*;)"),
        using_thrust(R"(\busing\s+namespace\s+(::\s*)?thrust\s*;)");
    const std::vector<bool> code = text::code_mask(source);
    const bool opened[] = {std::regex_search(source, using_cub), std::regex_search(source, using_thrust)};
    std::vector<Limit> out;
    text::for_each_word(source, code, [&](std::size_t i, std::size_t end) {
        const std::string word = source.substr(i, end - i);
        // The namespace that qualifies the word, "" where none does.
        std::string qualifier;
        std::size_t q = i;
        while (q > 0 && std::isspace(static_cast<unsigned char>(source[q - 1]))) --q;
        if (q >= 2 && source.compare(q - 2, 2, "::") == 0) {
            std::size_t e = q - 2;
            while (e > 0 && std::isspace(static_cast<unsigned char>(source[e - 1]))) --e;
            std::size_t b = e;
            while (b > 0 && text::is_ident(source[b - 1])) --b;
            qualifier = source.substr(b, e - b);
            if (qualifier.empty()) qualifier = "::";
        }
        for (std::size_t k = 0; k < 2; ++k) {
            const Scan& scan = kScans[k];
            if (std::find(scan.names.begin(), scan.names.end(), word) == scan.names.end()) continue;
            if (qualifier == scan.library || (opened[k] && (qualifier.empty() || qualifier == "::")))
                out.push_back({scan.construct, std::string(scan.library) + "::" + word,
                               static_cast<int>(text::line_of(source, i))});
        }
    });
    return out;
}

std::string encode_limits(const std::string& file, const std::vector<Limit>& limits) {
    std::string out = file + "\n";
    for (const Limit& l : limits) out += std::to_string(l.line) + "\t" + l.construct + "\t" + l.written + "\n";
    return out;
}

std::vector<Limit> decode_limits(const std::string& encoded, std::string* file) {
    std::istringstream in(encoded);
    std::string line;
    std::getline(in, line);
    if (file) *file = line;
    std::vector<Limit> out;
    while (std::getline(in, line)) {
        const std::size_t a = line.find('\t'), b = a == std::string::npos ? a : line.find('\t', a + 1);
        if (b == std::string::npos) continue;
        out.push_back({line.substr(a + 1, b - a - 1), line.substr(b + 1), std::atoi(line.c_str())});
    }
    return out;
}

std::string describe(const Limit& l) { return "`" + l.written + "` (" + l.construct + ")"; }

std::string explain_for_student(const std::string& file, const std::vector<Limit>& limits) {
    std::string out;
    for (const Limit& l : limits)
        out += file + ":" + std::to_string(l.line) + ": " + describe(l) + " is beyond the CPU emulator\n";
    return out + "This is the kit's limit, not a bug in your code. The emulator did not build this file, so this lab's "
                 "tests are skipped here; on a machine with an NVIDIA GPU they run there, and the grader grades this "
                 "lab on a GPU (where it has none, the lab is marked \"needs a GPU to grade\", not failed). "
                 "simt/docs/what-it-runs.md lists what the emulator runs.\n";
}


std::string summarize(const std::string& file, const std::vector<Limit>& limits) {
    if (limits.empty()) return "";
    const Limit& l = limits.front();
    std::string out = describe(l) + " at " + file + ":" + std::to_string(l.line);
    if (limits.size() > 1) out += " (and " + std::to_string(limits.size() - 1) + " more)";
    return out;
}

}  // namespace simt
