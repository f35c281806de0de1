// Host entry points of the emulator's test kernels: kernels.cu's, then each
// other file's under its name.
#pragma once

#include <cuda_runtime_api.h>

cudaError_t launch_reverse(const int* d_in, int* d_out, unsigned blocks, unsigned threads);
cudaError_t launch_exit_early(int* d_out, unsigned blocks);
cudaError_t launch_two_sites(int* d_out);
cudaError_t launch_dynamic_reverse(const int* d_in, int* d_out, unsigned threads, std::size_t shared_bytes);
cudaError_t launch_fill(float* d_out, float value, unsigned n);
cudaError_t launch_index_2d(unsigned* d_out);
void launch_checks_kernels(const float* f_in, float* f_out, int* i_out, unsigned which);
void launch_divergence_kernels(const float* in, float* out, unsigned which, unsigned blocks);
void launch_warp_kernels(int* out, unsigned* counters, unsigned which);
void launch_writes_host(int* host_out);
cudaError_t launch_warp_scan(const int* d_in, int* d_out, bool use_syncwarp);
cudaError_t launch_two_arrays(int* d_out);
cudaError_t launch_big_dynamic(const int* d_in, int* d_out, std::size_t shared_bytes, bool allow);
cudaError_t launch_on_stream(float* d_out, unsigned n, cudaStream_t stream);
cudaError_t launch_intrinsics_by_lane(unsigned* d_out);
cudaError_t launch_cuda_arch(int* d_out, int n, int* host_arch, unsigned* launches);  // cuda_arch.cu
cudaError_t launch_cuda_arch_race(int* d_out);  // cuda_arch.cu: a namespace-scope __shared__ race, 32 threads
// libcu_kernels.cu:
cudaError_t launch_libcu_publish_chain(float* d_data, unsigned* d_flags, float* d_out, unsigned blocks, int mode);
cudaError_t launch_libcu_release_then_write(float* d_data, unsigned* d_flag, float* d_out);
// scheduling_kernels.cu:
cudaError_t launch_start_order(unsigned* d_order, unsigned* d_tickets, dim3 grid);
cudaError_t launch_wait_for_previous(int* d_flags, int* d_out, unsigned blocks, bool use_volatile);
cudaError_t launch_endless_loop(int* d_out, unsigned blocks, unsigned step, bool with_barrier);
cudaError_t launch_long_loop(int* d_out, unsigned blocks, unsigned rounds, bool staggered);
cudaError_t launch_wait_first(int* d_flags, int* d_out, unsigned blocks, bool endless);
// publication_kernels.cu:
cudaError_t launch_publish_chain(float* d_data, int* d_flags, float* d_out, unsigned blocks, int fences);
cudaError_t launch_two_publications(int* d_flags, int* d_seen_between, unsigned blocks);
cudaError_t launch_publish_chain_volatile(float* d_data, int* d_flags, float* d_out, unsigned blocks);
cudaError_t launch_last_block_total(const float* d_in, float* d_sums, unsigned* d_ticket, float* d_total, unsigned blocks,
                                    bool fenced);
cudaError_t launch_cxx_fence(int* d_words);  // w[1] = 45, a C++ fence, then atomicExch(&w[0], 1)
// memory_kernels.cu:
cudaError_t launch_at(float* d_data, float* d_out, long long index, unsigned which);
cudaError_t launch_load_float4(const float* d_in, float* d_out, unsigned offset);
cudaError_t launch_shared_float4(const float* d_in, float* d_out);
cudaError_t launch_vector_past_end(void* d_data, unsigned which, bool store);  // which: memory_kernels.cu's list
// 0: every thread adds into the __device__ int d_total without an atomic; 1:
// thread 0 reads d_table[index] (8 ints) into it; 2: every thread atomicAdds into it.
cudaError_t launch_device_variable(unsigned which, int index);
extern int d_total;
extern int d_table[8];
// Copies for the count of data through the host (one block; `atomic`: through
// atomicAdd(&from[i], 0)), and 8 ints uploaded into d_table and copied out.
cudaError_t launch_copy_ints(int* from, int* to, unsigned n, bool atomic);
cudaError_t upload_and_copy_table(const int* host, int* to);
cudaError_t launch_math_stores(const float* d_in, float* d_s, float* d_c, int* d_e);  // math_kernels.cu: sincosf past the end, frexpf racing
// warp_kernels.cu:
// Each block files blockIdx + 1, this_grid().sync(), reads its neighbour's;
// exit_block (or -1) returns before the sync.
cudaError_t launch_grid_exchange(unsigned* d_slots, unsigned* d_out, unsigned blocks, unsigned threads,
                                 int cooperative, int exit_block);
cudaError_t launch_activemask_loop(unsigned* d_out);
cudaError_t launch_hinted_misuse(unsigned* d_data, unsigned* d_out, int which);
cudaError_t launch_nanosleep_wait(unsigned* d_tickets, unsigned* d_flags, unsigned blocks);
cudaError_t launch_bad_tile(unsigned* d_out);  // tiled_partition(block, 3)
cudaError_t launch_nested(unsigned* d_out);  // warp_kernels.cu: a launch from device code
cudaError_t launch_hinted_publication(unsigned* d_data, unsigned* d_flag, unsigned* d_out, int how);  // warp_kernels.cu
cudaError_t launch_mask_without_caller(int* d_out, int which);  // warp_kernels.cu: a warp function whose mask leaves the caller out
// shim_kernels.cu: the shim's device functions of every family in straight code.
cudaError_t launch_straight(float* d_out, unsigned* d_counters);
// byte_kernels.cu: accesses of less than a word, device memcpy/memset, reads of unwritten memory.
cudaError_t launch_adjacent_bytes(unsigned char* out, unsigned short* halves, void* quads, unsigned blocks);
cudaError_t launch_word_and_byte(unsigned* out, bool shared);
cudaError_t launch_bytes_across_blocks(unsigned char* out, bool read_other);
cudaError_t launch_device_memcalls(const float* in, float* out, int which, unsigned n);
cudaError_t launch_reads_global(int* data, int* out, int which, unsigned threads);
int* allocate_ints(unsigned n);  // cudaMalloc'd at byte_kernels.cu:143
// launch_forms_kernels.cu: launch form `which` of its list (32 floats of in
// to out, or 32 ints to i_out).
void launch_forms(const float* in, float* out, int* i_out, unsigned which);
// namespace_shared_kernels.cu: `__shared__` variables at namespace scope,
// kernel `which` of its list; the static shared memory of kernel 0, 1, 4 or
// 6 after its launch (cudaFuncGetAttributes).
void launch_namespace_shared(float* f_in, float* f_out, int* i_out, unsigned which);
std::size_t namespace_shared_static_bytes(unsigned which);
void launch_function_scope_flag(int* i_out);  // its kernel 8 with `static volatile __shared__` in the kernel
