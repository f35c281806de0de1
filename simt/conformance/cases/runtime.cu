// Streams and events: creation with each flag and priority, launches on
// created and default streams ordered by events and synchronisation, host
// callbacks, and the codes CUDA returns for misuse. On the emulator every
// launch has finished when it returns, so each stream is idle at once; on a
// GPU the cases synchronise before they read anything.
#include <cstdint>
#include <vector>

#include "conformance.hpp"

namespace {

constexpr unsigned kN = 256;

__global__ void k_fill(int* a, int value) { a[blockIdx.x * blockDim.x + threadIdx.x] = value; }
__global__ void k_add(int* a, int value) { a[blockIdx.x * blockDim.x + threadIdx.x] += value; }

int code(cudaError_t e) { return static_cast<int>(e); }

struct Calls {
    int callbacks = 0, host_functions = 0;
    int status = -1;
    cudaStream_t stream = nullptr;
};

void CUDART_CB on_callback(cudaStream_t stream, cudaError_t status, void* data) {
    auto* c = static_cast<Calls*>(data);
    ++c->callbacks;
    c->status = code(status);
    c->stream = stream;
}

void CUDART_CB on_host_function(void* data) { ++static_cast<Calls*>(data)->host_functions; }

}  // namespace

CONFORMANCE_CASE(streams, "cudaStreamCreate cudaStreamCreateWithFlags cudaStreamCreateWithPriority "
                          "cudaDeviceGetStreamPriorityRange cudaStreamDestroy cudaStreamSynchronize cudaStreamQuery "
                          "cudaStreamGetFlags cudaStreamGetPriority cudaStreamDefault cudaStreamNonBlocking "
                          "cudaStreamLegacy cudaStreamPerThread") {
    int least = 99, greatest = 99;
    r.require(cudaDeviceGetStreamPriorityRange(&least, &greatest), "cudaDeviceGetStreamPriorityRange");
    r.exact("cudaDeviceGetStreamPriorityRange least, greatest", std::vector<int>{least, greatest});

    cudaStream_t plain = nullptr, nonblocking = nullptr, high = nullptr, low = nullptr, explicit_default = nullptr;
    r.require(cudaStreamCreate(&plain), "cudaStreamCreate");
    r.require(cudaStreamCreateWithFlags(&nonblocking, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
    r.require(cudaStreamCreateWithFlags(&explicit_default, cudaStreamDefault), "cudaStreamCreateWithFlags");
    // Out of the range: clamped to its ends.
    r.require(cudaStreamCreateWithPriority(&high, cudaStreamNonBlocking, greatest - 3), "cudaStreamCreateWithPriority");
    r.require(cudaStreamCreateWithPriority(&low, cudaStreamDefault, least + 7), "cudaStreamCreateWithPriority");

    std::vector<int> flags, priorities;
    for (cudaStream_t s : {plain, nonblocking, explicit_default, high, low, cudaStream_t(0), cudaStreamLegacy,
                           cudaStreamPerThread}) {
        unsigned f = 99;
        int p = 99;
        r.require(cudaStreamGetFlags(s, &f), "cudaStreamGetFlags");
        r.require(cudaStreamGetPriority(s, &p), "cudaStreamGetPriority");
        flags.push_back(static_cast<int>(f));
        priorities.push_back(p);
    }
    r.exact("cudaStreamGetFlags: created, non-blocking, default, high, low, 0, legacy, per-thread", flags);
    r.exact("cudaStreamGetPriority: the same streams", priorities);

    // One launch on each stream, each after the last has finished.
    conformance::Buffer<int> a(kN);
    k_fill<<<kN / 64, 64, 0, plain>>>(a, 1);
    r.require(cudaStreamSynchronize(plain), "cudaStreamSynchronize");
    k_add<<<kN / 64, 64, 0, nonblocking>>>(a, 2);
    r.require(cudaStreamSynchronize(nonblocking), "cudaStreamSynchronize");
    k_add<<<kN / 64, 64, 0, high>>>(a, 4);
    r.require(cudaStreamSynchronize(high), "cudaStreamSynchronize");
    k_add<<<kN / 64, 64, 0, low>>>(a, 8);
    r.require(cudaStreamSynchronize(low), "cudaStreamSynchronize");
    k_add<<<kN / 64, 64, 0, 0>>>(a, 16);
    k_add<<<kN / 64, 64, 0, cudaStreamPerThread>>>(a, 32);
    r.require(cudaStreamSynchronize(cudaStreamPerThread), "cudaStreamSynchronize");
    k_add<<<kN / 64, 64, 0, cudaStreamLegacy>>>(a, 64);
    r.require(cudaStreamSynchronize(cudaStreamLegacy), "cudaStreamSynchronize");
    k_add<<<kN / 64, 64, 0, explicit_default>>>(a, 128);
    r.require(cudaStreamSynchronize(explicit_default), "cudaStreamSynchronize");
    r.require(cudaGetLastError(), "a launch");
    r.exact("launches on each stream: 1 + 2 + ... + 128", a.get());

    std::vector<int> queried;
    for (cudaStream_t s : {plain, nonblocking, cudaStream_t(0), cudaStreamLegacy, cudaStreamPerThread})
        queried.push_back(code(cudaStreamQuery(s)));
    r.exact("cudaStreamQuery once synchronised: created, non-blocking, 0, legacy, per-thread", queried);

    std::vector<int> destroyed;
    for (cudaStream_t s : {plain, nonblocking, explicit_default, high, low}) destroyed.push_back(code(cudaStreamDestroy(s)));
    r.exact("cudaStreamDestroy", destroyed);
    r.exact("cudaGetLastError after them", code(cudaGetLastError()));
}

CONFORMANCE_CASE(stream_misuse, "cudaStreamCreate cudaStreamCreateWithFlags cudaStreamGetFlags cudaStreamDestroy "
                                "cudaStreamAddCallback cudaGetLastError") {
    cudaStream_t s = nullptr;
    r.require(cudaStreamCreate(&s), "cudaStreamCreate");
    std::vector<int> codes;
    codes.push_back(code(cudaStreamCreate(nullptr)));
    codes.push_back(code(cudaStreamCreateWithFlags(nullptr, cudaStreamNonBlocking)));
    cudaStream_t bad = nullptr;
    codes.push_back(code(cudaStreamCreateWithFlags(&bad, 0x4)));  // no such flag
    codes.push_back(code(cudaStreamGetFlags(s, nullptr)));
    codes.push_back(code(cudaStreamAddCallback(s, nullptr, nullptr, 0)));
    Calls calls;
    codes.push_back(code(cudaStreamAddCallback(s, on_callback, &calls, 1)));  // flags must be 0
    codes.push_back(code(cudaStreamDestroy(0)));  // the default stream is not one's to destroy
    r.exact("codes: cudaStreamCreate(null), WithFlags(null), WithFlags(flag 4), GetFlags(null), AddCallback(no "
            "function), AddCallback(flags 1), cudaStreamDestroy(0)",
            codes);
    // The last error is the last call's that failed; reading it clears it.
    const int last = code(cudaGetLastError()), then = code(cudaGetLastError());
    r.exact("cudaGetLastError twice", std::vector<int>{last, then});
    r.exact("callbacks run by the calls that failed", calls.callbacks);
    r.require(cudaStreamDestroy(s), "cudaStreamDestroy");
}

CONFORMANCE_CASE(host_callbacks, "cudaStreamAddCallback cudaLaunchHostFunc") {
    cudaStream_t s = nullptr;
    r.require(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
    conformance::Buffer<int> a(kN);
    Calls calls;
    k_fill<<<kN / 64, 64, 0, s>>>(a, 5);
    r.require(cudaStreamAddCallback(s, on_callback, &calls, 0), "cudaStreamAddCallback");
    r.require(cudaLaunchHostFunc(s, on_host_function, &calls), "cudaLaunchHostFunc");
    r.require(cudaLaunchHostFunc(0, on_host_function, &calls), "cudaLaunchHostFunc");
    r.require(cudaStreamSynchronize(s), "cudaStreamSynchronize");
    r.require(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    r.exact("callbacks, host functions, the callback's status", std::vector<int>{calls.callbacks, calls.host_functions, calls.status});
    r.exact("the callback's stream is the one it was added to", static_cast<std::uint8_t>(calls.stream == s));
    r.exact("the stream's work", a.get());
    r.exact("cudaLaunchHostFunc(no function)", code(cudaLaunchHostFunc(s, nullptr, nullptr)));
    cudaGetLastError();
    r.require(cudaStreamDestroy(s), "cudaStreamDestroy");
}

CONFORMANCE_CASE(events, "cudaEventCreate cudaEventCreateWithFlags cudaEventRecord cudaEventRecordWithFlags "
                         "cudaEventQuery cudaEventSynchronize cudaEventElapsedTime cudaEventDestroy cudaStreamWaitEvent "
                         "cudaEventDefault cudaEventBlockingSync cudaEventDisableTiming cudaEventRecordDefault") {
    cudaEvent_t plain = nullptr, blocking = nullptr, untimed = nullptr, both = nullptr;
    r.require(cudaEventCreate(&plain), "cudaEventCreate");
    r.require(cudaEventCreateWithFlags(&blocking, cudaEventBlockingSync), "cudaEventCreateWithFlags");
    r.require(cudaEventCreateWithFlags(&untimed, cudaEventDisableTiming), "cudaEventCreateWithFlags");
    r.require(cudaEventCreateWithFlags(&both, cudaEventBlockingSync | cudaEventDisableTiming), "cudaEventCreateWithFlags");

    float ms = -1.0f;
    std::vector<int> before;
    before.push_back(code(cudaEventQuery(plain)));  // never recorded: nothing to wait for
    before.push_back(code(cudaEventSynchronize(blocking)));
    before.push_back(code(cudaEventElapsedTime(&ms, plain, blocking)));  // not recorded yet
    r.exact("before any record: cudaEventQuery, cudaEventSynchronize, cudaEventElapsedTime", before);
    cudaGetLastError();

    // Two streams ordered by an event: the second waits for the first's fill.
    cudaStream_t first = nullptr, second = nullptr;
    r.require(cudaStreamCreateWithFlags(&first, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
    r.require(cudaStreamCreateWithFlags(&second, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
    conformance::Buffer<int> a(kN);
    r.require(cudaEventRecord(plain, first), "cudaEventRecord");
    k_fill<<<kN / 64, 64, 0, first>>>(a, 7);
    r.require(cudaEventRecordWithFlags(blocking, first, cudaEventRecordDefault), "cudaEventRecordWithFlags");
    r.require(cudaStreamWaitEvent(second, blocking, 0), "cudaStreamWaitEvent");
    k_add<<<kN / 64, 64, 0, second>>>(a, 3);
    r.require(cudaEventRecord(untimed, second), "cudaEventRecord");
    r.require(cudaEventRecord(both), "cudaEventRecord");
    r.require(cudaEventSynchronize(both), "cudaEventSynchronize");
    r.require(cudaEventSynchronize(untimed), "cudaEventSynchronize");
    r.require(cudaEventSynchronize(blocking), "cudaEventSynchronize");
    r.require(cudaStreamSynchronize(second), "cudaStreamSynchronize");
    r.exact("fill on one stream, add on another after an event", a.get());

    std::vector<int> after;
    for (cudaEvent_t e : {plain, blocking, untimed, both}) after.push_back(code(cudaEventQuery(e)));
    after.push_back(code(cudaEventElapsedTime(&ms, plain, blocking)));
    const bool timed = ms >= 0.0f;
    after.push_back(code(cudaEventElapsedTime(&ms, plain, untimed)));  // timing disabled
    after.push_back(code(cudaEventElapsedTime(&ms, both, blocking)));
    after.push_back(code(cudaEventElapsedTime(nullptr, plain, blocking)));
    r.exact("recorded: cudaEventQuery of each; cudaEventElapsedTime timed, with a disabled one either side, into null",
            after);
    r.exact("a timed interval is not negative", static_cast<std::uint8_t>(timed));
    cudaGetLastError();

    std::vector<int> misuse;
    cudaEvent_t bad = nullptr;
    misuse.push_back(code(cudaEventCreateWithFlags(&bad, 0x8)));                    // no such flag
    misuse.push_back(code(cudaEventCreateWithFlags(&bad, cudaEventInterprocess)));  // needs cudaEventDisableTiming
    misuse.push_back(code(cudaEventCreate(nullptr)));
    misuse.push_back(code(cudaEventRecordWithFlags(plain, 0, 0x2)));  // no such flag
    misuse.push_back(code(cudaStreamWaitEvent(second, blocking, 0x2)));
    r.exact("codes: WithFlags(flag 8), WithFlags(interprocess, timed), cudaEventCreate(null), RecordWithFlags(flag 2), "
            "cudaStreamWaitEvent(flag 2)",
            misuse);
    cudaGetLastError();

    std::vector<int> destroyed;
    for (cudaEvent_t e : {plain, blocking, untimed, both}) destroyed.push_back(code(cudaEventDestroy(e)));
    r.exact("cudaEventDestroy", destroyed);
    r.require(cudaStreamDestroy(first), "cudaStreamDestroy");
    r.require(cudaStreamDestroy(second), "cudaStreamDestroy");
}
