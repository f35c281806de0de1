// Lab 04: a scan of any length. Read README.md first.
//
// One block scans one 2048-element section. For longer inputs: (1) scan every
// section and record its total, (2) scan the totals, (3) add the scanned
// total of all earlier sections to every element of each section. Step (2)
// is itself a scan that may need the whole hierarchy again.
#include <cuda_runtime.h>

#include <vector>

#include "scan.hpp"

/**
 * @brief Position of the tree node a thread handles at a given stride
 *        (contiguous mapping, keeps the busy threads in the first warps).
 */
__device__ unsigned brent_kung_node_position(unsigned thread_position, unsigned stride) {
    return (thread_position + 1) * 2 * stride - 1;
}

/**
 * @brief Reduction (up) tree: strides 1, 2, ..., SECTION_SIZE / 2.
 *
 * Afterwards the last element of the section holds the section's total.
 */
__device__ void brent_kung_reduction_tree(float* section_values, unsigned thread_position) {
    for (unsigned stride = 1; stride <= SECTION_SIZE / 2; stride *= 2) {
        __syncthreads();
        const unsigned node = brent_kung_node_position(thread_position, stride);
        if (node < SECTION_SIZE) {
            section_values[node] += section_values[node - stride];
        }
    }
}

/**
 * @brief Distribution (down) tree: strides SECTION_SIZE / 4, ..., 1.
 *
 * Pushes each partial sum of the reduction tree to the elements that still
 * miss it; the target must stay inside the section.
 */
__device__ void brent_kung_distribution_tree(float* section_values, unsigned thread_position) {
    for (unsigned stride = SECTION_SIZE / 4; stride >= 1; stride /= 2) {
        __syncthreads();
        const unsigned node = brent_kung_node_position(thread_position, stride);
        const unsigned target = node + stride;
        if (target < SECTION_SIZE) {
            section_values[target] += section_values[node];
        }
    }
}

// Kernel 1: scan each section; with block_sums, also record each section's
// total at block_sums[blockIdx.x].
__global__ void scan_sections_kernel(const float* in, float* out, std::size_t n, float* block_sums) {
    __shared__ float section[SECTION_SIZE];
    const unsigned t = threadIdx.x;
    const std::size_t start = std::size_t{blockIdx.x} * SECTION_SIZE;  // < n
    for (unsigned k = t; k < SECTION_SIZE; k += BLOCK_SIZE)
        section[k] = k < n - start ? in[start + k] : 0.0f;

    // Inclusive Brent-Kung scan of the section, in place.
    brent_kung_reduction_tree(section, t);
    brent_kung_distribution_tree(section, t);

    __syncthreads();
    for (unsigned k = t; k < SECTION_SIZE; k += BLOCK_SIZE)
        if (k < n - start) out[start + k] = section[k];

    // The last scanned element is the section total (missing elements were loaded as 0).
    const bool records_section_total = block_sums != nullptr && t == 0;
    if (records_section_total) {
        block_sums[blockIdx.x] = section[SECTION_SIZE - 1];
    }
}

// Kernel 3: add the scanned totals back.
/**
 * @brief Block b adds the total of sections 0..b to every element of section b + 1.
 *
 * The offset is read once by thread 0 and shared with the block; the last
 * section may be partial, so every store is bounds-checked.
 */
__global__ void add_block_sums_kernel(float* out, std::size_t n, const float* scanned_sums) {
    __shared__ float offset_of_earlier_sections;
    if (threadIdx.x == 0) {
        offset_of_earlier_sections = scanned_sums[blockIdx.x];
    }
    __syncthreads();

    const std::size_t section_begin = (std::size_t{blockIdx.x} + 1) * SECTION_SIZE;
    const std::size_t section_end = section_begin + SECTION_SIZE < n ? section_begin + SECTION_SIZE : n;
    for (std::size_t element = section_begin + threadIdx.x; element < section_end; element += blockDim.x) {
        out[element] += offset_of_earlier_sections;
    }
}

/**
 * @brief Number of SECTION_SIZE-element sections covering element_count elements.
 */
static std::size_t number_of_sections(std::size_t element_count) {
    return (element_count + SECTION_SIZE - 1) / SECTION_SIZE;
}

/**
 * @brief One level of the hierarchy: what kernel 1 scanned and where the
 *        totals of its sections went.
 */
struct ScanLevel {
    float* scanned_values;        ///< output of kernel 1 at this level
    std::size_t element_count;    ///< number of elements scanned at this level
    std::size_t section_count;    ///< number of sections (blocks) at this level
    float* section_totals;        ///< device buffer of section_count totals (owned)
};

void hierarchical_scan(const float* d_in, float* d_out, std::size_t n) {
    if (n == 0) return;

    // Going up: scan the sections of each level, keeping their totals for the
    // next level, until a level fits into a single section.
    std::vector<ScanLevel> levels_with_totals;
    const float* level_input = d_in;
    float* level_output = d_out;
    std::size_t level_element_count = n;
    while (true) {
        const std::size_t level_section_count = number_of_sections(level_element_count);
        if (level_section_count == 1) {
            scan_sections_kernel<<<1, BLOCK_SIZE>>>(level_input, level_output, level_element_count, nullptr);
            break;
        }
        float* section_totals = nullptr;
        cudaMalloc(&section_totals, level_section_count * sizeof(float));
        scan_sections_kernel<<<static_cast<unsigned>(level_section_count), BLOCK_SIZE>>>(
            level_input, level_output, level_element_count, section_totals);
        levels_with_totals.push_back({level_output, level_element_count, level_section_count, section_totals});

        // The totals are scanned in place at the next level.
        level_input = section_totals;
        level_output = section_totals;
        level_element_count = level_section_count;
    }

    // Going down: once a level's totals are fully scanned, add them back into
    // the level below, from the top of the hierarchy to the bottom.
    for (auto level = levels_with_totals.rbegin(); level != levels_with_totals.rend(); ++level) {
        add_block_sums_kernel<<<static_cast<unsigned>(level->section_count - 1), BLOCK_SIZE>>>(
            level->scanned_values, level->element_count, level->section_totals);
    }

    for (const ScanLevel& level : levels_with_totals) {
        cudaFree(level.section_totals);
    }
}
