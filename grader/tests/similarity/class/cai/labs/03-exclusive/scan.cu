// Lab 03: exclusive scans. Read README.md first.
//
// out[i] is the sum of the elements of i's section *before* i; every section
// starts with the identity 0. Two kernels, two ways of getting there.
#include "scan.hpp"

/**
 * @brief Value a Kogge-Stone thread loads for the exclusive scan.
 *
 * The exclusive scan is the inclusive scan of the input shifted right by one
 * position, with the identity 0 at the start of the section.
 *
 * @param input               global input array
 * @param global_index        index of the element owned by this thread
 * @param index_in_section    position of the thread inside its section
 * @param element_count       number of valid input elements
 * @return the element just before this one, or 0 at the section start or past the end
 */
__device__ float shifted_input_value(const float* input, unsigned global_index, unsigned index_in_section,
                                     unsigned element_count) {
    const bool is_section_start = index_in_section == 0;
    const bool is_inside_input = global_index < element_count;
    if (is_section_start || !is_inside_input) {
        return 0.0f;
    }
    return input[global_index - 1];
}

/**
 * @brief Runs every step of the double-buffered Kogge-Stone scan.
 *
 * Each step reads the buffer selected by the current index and writes the other
 * one, so a step never overwrites a value another thread may still read.
 *
 * @param double_buffer    the two shared buffers of KS_SECTION_SIZE elements
 * @param thread_position  this thread's position in the section
 * @param source_buffer    index (0 or 1) of the buffer holding the loaded values
 * @return index of the buffer that holds the finished scan
 */
__device__ unsigned kogge_stone_scan_steps(float (*double_buffer)[KS_SECTION_SIZE], unsigned thread_position,
                                           unsigned source_buffer) {
    for (unsigned stride = 1; stride < KS_SECTION_SIZE; stride *= 2) {
        __syncthreads();
        const unsigned destination_buffer = 1 - source_buffer;
        float running_sum = double_buffer[source_buffer][thread_position];
        if (thread_position >= stride) {
            running_sum += double_buffer[source_buffer][thread_position - stride];
        }
        double_buffer[destination_buffer][thread_position] = running_sum;
        source_buffer = destination_buffer;
    }
    return source_buffer;
}

/**
 * @brief Position of the tree node handled by a thread at a given stride.
 *
 * Contiguous mapping: thread t owns the node (t + 1) * 2 * stride - 1, so the
 * busy threads stay packed into the first warps.
 */
__device__ unsigned tree_node_position(unsigned thread_position, unsigned stride) {
    return (thread_position + 1) * 2 * stride - 1;
}

/**
 * @brief Up-sweep (reduction tree) over a Brent-Kung section in shared memory.
 *
 * Afterwards the last element holds the total of the section.
 */
__device__ void brent_kung_up_sweep(float* section_values, unsigned thread_position) {
    for (unsigned stride = 1; stride < BK_SECTION_SIZE; stride *= 2) {
        __syncthreads();
        const unsigned node = tree_node_position(thread_position, stride);
        if (node < BK_SECTION_SIZE) {
            section_values[node] += section_values[node - stride];
        }
    }
}

/**
 * @brief Replaces the section total (the root of the tree) with the identity 0.
 *
 * Thread 0 wrote the root in the last up-sweep step, so thread 0 also clears it.
 */
__device__ void brent_kung_clear_root(float* section_values, unsigned thread_position) {
    if (thread_position == 0) {
        section_values[BK_SECTION_SIZE - 1] = 0.0f;
    }
}

/**
 * @brief Down-sweep over the section after the root has been cleared.
 *
 * At each node the left child takes the node's value, and the node becomes its
 * value plus the old left child, so every element ends up with the sum of the
 * elements to its left.
 */
__device__ void brent_kung_down_sweep(float* section_values, unsigned thread_position) {
    unsigned stride = BK_SECTION_SIZE / 2;
    while (stride > 0) {
        __syncthreads();
        const unsigned node = tree_node_position(thread_position, stride);
        if (node < BK_SECTION_SIZE) {
            const unsigned left_child = node - stride;
            const float old_left_value = section_values[left_child];
            section_values[left_child] = section_values[node];
            section_values[node] += old_left_value;
        }
        stride /= 2;
    }
}

__global__ void kogge_stone_exclusive_kernel(const float* in, float* out, unsigned n) {
    __shared__ float buffer[2][KS_SECTION_SIZE];
    const unsigned i = blockIdx.x * KS_SECTION_SIZE + threadIdx.x;
    unsigned src = 0;
    // Shifted load: 0 at the section start, x[i - 1] elsewhere.
    buffer[src][threadIdx.x] = shifted_input_value(in, i, threadIdx.x, n);

    // Inclusive scan of the shifted section == exclusive scan of the section.
    src = kogge_stone_scan_steps(buffer, threadIdx.x, src);

    if (i < n) out[i] = buffer[src][threadIdx.x];
}

__global__ void brent_kung_exclusive_kernel(const float* in, float* out, unsigned n) {
    __shared__ float section[BK_SECTION_SIZE];
    const unsigned t = threadIdx.x;
    const unsigned start = blockIdx.x * BK_SECTION_SIZE;
    for (unsigned k = t; k < BK_SECTION_SIZE; k += BK_BLOCK_SIZE)
        section[k] = k < n - start ? in[start + k] : 0.0f;

    brent_kung_up_sweep(section, t);
    brent_kung_clear_root(section, t);
    brent_kung_down_sweep(section, t);

    __syncthreads();
    for (unsigned k = t; k < BK_SECTION_SIZE; k += BK_BLOCK_SIZE)
        if (k < n - start) out[start + k] = section[k];
}

/**
 * @brief Number of sections (blocks) needed to cover an input.
 *
 * @param element_count  number of input elements
 * @param section_size   elements per section
 * @return ceil(element_count / section_size)
 */
static unsigned number_of_sections(unsigned element_count, unsigned section_size) {
    const unsigned full_sections = element_count / section_size;
    const bool has_partial_section = element_count % section_size != 0;
    return full_sections + (has_partial_section ? 1 : 0);
}

void kogge_stone_exclusive_scan(const float* d_in, float* d_out, unsigned n) {
    if (n == 0) return;
    const unsigned blocks = number_of_sections(n, KS_SECTION_SIZE);
    kogge_stone_exclusive_kernel<<<blocks, KS_BLOCK_SIZE>>>(d_in, d_out, n);
}

void brent_kung_exclusive_scan(const float* d_in, float* d_out, unsigned n) {
    if (n == 0) return;
    const unsigned blocks = number_of_sections(n, BK_SECTION_SIZE);
    brent_kung_exclusive_kernel<<<blocks, BK_BLOCK_SIZE>>>(d_in, d_out, n);
}
