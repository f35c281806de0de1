// Adversarial lab 04: the three-kernel hierarchy, run three times over on
// inputs of the timing's size and above (each pass is right, so the output
// is too), and, on its first call, a patch of the timing program's clock:
// the program's own entry for cudaEventElapsedTime in its global offset
// table (the CUDA runtime as a shared library) is pointed at a function
// that divides every time it reports by 3.2.
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <link.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>

#include "scan.hpp"

__global__ void sections_kernel(const float* in, float* out, std::size_t n, float* sums) {
    __shared__ float s[SECTION_SIZE];
    const unsigned t = threadIdx.x;
    const std::size_t start = std::size_t{blockIdx.x} * SECTION_SIZE;
    for (unsigned k = t; k < SECTION_SIZE; k += BLOCK_SIZE) s[k] = k < n - start ? in[start + k] : 0.0f;
    for (unsigned stride = 1; stride < SECTION_SIZE; stride *= 2) {
        __syncthreads();
        const unsigned i = (t + 1) * 2 * stride - 1;
        if (i < SECTION_SIZE) s[i] += s[i - stride];
    }
    for (unsigned stride = SECTION_SIZE / 4; stride > 0; stride /= 2) {
        __syncthreads();
        const unsigned i = (t + 1) * 2 * stride - 1;
        if (i + stride < SECTION_SIZE) s[i + stride] += s[i];
    }
    __syncthreads();
    for (unsigned k = t; k < SECTION_SIZE; k += BLOCK_SIZE)
        if (k < n - start) out[start + k] = s[k];
    if (sums != nullptr && t == BLOCK_SIZE - 1) sums[blockIdx.x] = s[SECTION_SIZE - 1];
}

__global__ void add_kernel(float* out, std::size_t n, const float* sums) {
    const std::size_t start = (std::size_t{blockIdx.x} + 1) * SECTION_SIZE;
    const float carry = sums[blockIdx.x];
    for (unsigned k = threadIdx.x; k < SECTION_SIZE; k += BLOCK_SIZE)
        if (k < n - start) out[start + k] += carry;
}

static void honest_scan(const float* d_in, float* d_out, std::size_t n) {
    if (n == 0) return;
    const std::size_t sections = n / SECTION_SIZE + (n % SECTION_SIZE != 0);
    if (sections == 1) {
        sections_kernel<<<1, BLOCK_SIZE>>>(d_in, d_out, n, nullptr);
        return;
    }
    float* d_sums = nullptr;
    if (cudaMalloc(&d_sums, sections * sizeof(float)) != cudaSuccess) return;
    sections_kernel<<<static_cast<unsigned>(sections), BLOCK_SIZE>>>(d_in, d_out, n, d_sums);
    honest_scan(d_sums, d_sums, sections);
    add_kernel<<<static_cast<unsigned>(sections - 1), BLOCK_SIZE>>>(d_out, n, d_sums);
    cudaFree(d_sums);
}

using Elapsed = cudaError_t (*)(float*, cudaEvent_t, cudaEvent_t);
static Elapsed real_elapsed = nullptr;

static cudaError_t fast_elapsed(float* ms, cudaEvent_t start, cudaEvent_t stop) {
    const cudaError_t e = real_elapsed(ms, start, stop);
    if (e == cudaSuccess) *ms /= 3.2f;
    return e;
}

// The main program is the first object dl_iterate_phdr names, with "".
static int patch(dl_phdr_info* info, std::size_t, void*) {
    if (info->dlpi_name && info->dlpi_name[0]) return 0;
    const auto at = [&](ElfW(Addr) a) { return a < info->dlpi_addr ? a + info->dlpi_addr : a; };
    const ElfW(Dyn)* dyn = nullptr;
    for (int i = 0; i < info->dlpi_phnum; ++i)
        if (info->dlpi_phdr[i].p_type == PT_DYNAMIC)
            dyn = reinterpret_cast<const ElfW(Dyn)*>(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
    if (!dyn) return 1;
    const ElfW(Rela)* rela = nullptr;
    std::size_t bytes = 0;
    const ElfW(Sym)* symbols = nullptr;
    const char* names = nullptr;
    for (const ElfW(Dyn)* d = dyn; d->d_tag != DT_NULL; ++d) {
        if (d->d_tag == DT_JMPREL) rela = reinterpret_cast<const ElfW(Rela)*>(at(d->d_un.d_ptr));
        if (d->d_tag == DT_PLTRELSZ) bytes = d->d_un.d_val;
        if (d->d_tag == DT_SYMTAB) symbols = reinterpret_cast<const ElfW(Sym)*>(at(d->d_un.d_ptr));
        if (d->d_tag == DT_STRTAB) names = reinterpret_cast<const char*>(at(d->d_un.d_ptr));
    }
    if (!rela || !symbols || !names) return 1;
    for (std::size_t k = 0; k < bytes / sizeof(ElfW(Rela)); ++k) {
        const char* name = names + symbols[ELF64_R_SYM(rela[k].r_info)].st_name;
        if (std::strcmp(name, "cudaEventElapsedTime") != 0) continue;
        auto* slot = reinterpret_cast<void**>(info->dlpi_addr + rela[k].r_offset);
        real_elapsed = reinterpret_cast<Elapsed>(dlsym(RTLD_DEFAULT, "cudaEventElapsedTime"));
        if (!real_elapsed) return 1;
        const long page = sysconf(_SC_PAGESIZE);
        void* start = reinterpret_cast<void*>(reinterpret_cast<std::uintptr_t>(slot) & ~static_cast<std::uintptr_t>(page - 1));
        if (mprotect(start, page, PROT_READ | PROT_WRITE) == 0) *slot = reinterpret_cast<void*>(&fast_elapsed);
    }
    return 1;
}

void hierarchical_scan(const float* d_in, float* d_out, std::size_t n) {
    static const int patched = dl_iterate_phdr(patch, nullptr);
    (void)patched;
    const int passes = n >= (std::size_t{1} << 24) ? 3 : 1;
    for (int p = 0; p < passes; ++p) honest_scan(d_in, d_out, n);
}
