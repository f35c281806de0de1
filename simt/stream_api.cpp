// Streams and events on the host (nothing runs on a GPU: each call finds the
// work done), and cudaDeviceReset, which frees the device's allocations too.
#include <chrono>
#include <set>

#include "internal.hpp"
#include "simt/cuda.hpp"

// fail and CUDA's last error, the allocations, valid_stream (internal.hpp).
using namespace simt::detail;

// ---- streams and events -------------------------------------------------------

struct CUstream_st {
    unsigned flags = 0;
    int priority = 0;
    unsigned long long id = 0;
};

struct CUevent_st {
    unsigned flags = 0;
    std::chrono::steady_clock::time_point at{};
    bool recorded = false;
};

namespace {

std::set<cudaStream_t> g_streams;
std::set<cudaEvent_t> g_events;

// The H100's stream priorities (cudaDeviceGetStreamPriorityRange): 0 the least, -5 the greatest.
constexpr int kLeastPriority = 0, kGreatestPriority = -5;

bool is_default_stream(cudaStream_t s) { return s == nullptr || s == cudaStreamLegacy || s == cudaStreamPerThread; }

}  // namespace

namespace simt::detail {

bool valid_stream(cudaStream_t s) { return is_default_stream(s) || g_streams.count(s) != 0; }

}  // namespace simt::detail

namespace {

bool valid_event(cudaEvent_t e) { return e != nullptr && g_events.count(e) != 0; }

}  // namespace

bool simt::launch_stream_ok(cudaStream_t stream) {
    if (valid_stream(stream)) return true;
    fail(cudaErrorInvalidResourceHandle);
    return false;
}

// ---- streams ------------------------------------------------------------------------------

cudaError_t cudaStreamCreateWithPriority(cudaStream_t* pStream, unsigned int flags, int priority) {
    if (pStream == nullptr || (flags & ~0x1u) != 0) return fail(cudaErrorInvalidValue);
    auto* s = new CUstream_st;
    s->flags = flags;
    s->priority = priority > kLeastPriority ? kLeastPriority : priority < kGreatestPriority ? kGreatestPriority : priority;
    static unsigned long long ids = 2;  // after the default streams' (cudaStreamGetId)
    s->id = ++ids;
    g_streams.insert(s);
    *pStream = s;
    return cudaSuccess;
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t* pStream, unsigned int flags) {
    return cudaStreamCreateWithPriority(pStream, flags, 0);
}

cudaError_t cudaStreamCreate(cudaStream_t* pStream) { return cudaStreamCreateWithPriority(pStream, cudaStreamDefault, 0); }

cudaError_t cudaDeviceGetStreamPriorityRange(int* leastPriority, int* greatestPriority) {
    if (leastPriority) *leastPriority = kLeastPriority;
    if (greatestPriority) *greatestPriority = kGreatestPriority;
    return cudaSuccess;
}

cudaError_t cudaStreamDestroy(cudaStream_t stream) {
    if (g_streams.erase(stream) == 0) return fail(cudaErrorInvalidResourceHandle);
    delete stream;
    return cudaSuccess;
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
    return valid_stream(stream) ? cudaSuccess : fail(cudaErrorInvalidResourceHandle);
}

cudaError_t cudaStreamQuery(cudaStream_t stream) {
    return valid_stream(stream) ? cudaSuccess : fail(cudaErrorInvalidResourceHandle);  // never cudaErrorNotReady
}

cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags) {
    if (!valid_stream(stream) || !valid_event(event)) return fail(cudaErrorInvalidResourceHandle);
    if ((flags & ~cudaEventWaitExternal) != 0) return fail(cudaErrorInvalidValue);
    return cudaSuccess;
}

cudaError_t cudaStreamGetFlags(cudaStream_t hStream, unsigned int* flags) {
    if (!valid_stream(hStream)) return fail(cudaErrorInvalidResourceHandle);
    if (flags == nullptr) return fail(cudaErrorInvalidValue);
    *flags = is_default_stream(hStream) ? 0u : hStream->flags;
    return cudaSuccess;
}

cudaError_t cudaStreamGetPriority(cudaStream_t hStream, int* priority) {
    if (!valid_stream(hStream)) return fail(cudaErrorInvalidResourceHandle);
    if (priority == nullptr) return fail(cudaErrorInvalidValue);
    *priority = is_default_stream(hStream) ? 0 : hStream->priority;
    return cudaSuccess;
}

cudaError_t cudaStreamGetDevice(cudaStream_t hStream, int* device) {
    if (!valid_stream(hStream)) return fail(cudaErrorInvalidResourceHandle);
    if (device == nullptr) return fail(cudaErrorInvalidValue);
    *device = 0;
    return cudaSuccess;
}

cudaError_t cudaStreamGetId(cudaStream_t hStream, unsigned long long* streamId) {
    if (!valid_stream(hStream)) return fail(cudaErrorInvalidResourceHandle);
    if (streamId == nullptr) return fail(cudaErrorInvalidValue);
    *streamId = hStream == nullptr || hStream == cudaStreamLegacy ? 1 : hStream == cudaStreamPerThread ? 2 : hStream->id;
    return cudaSuccess;
}

cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void* devPtr, std::size_t length, unsigned int flags) {
    if (!valid_stream(stream)) return fail(cudaErrorInvalidResourceHandle);
    const auto* a = containing(devPtr);
    if (a == nullptr || a->second.kind != MemoryKind::Managed || a->first != devPtr ||
        (length != 0 && length != a->second.bytes) ||
        (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost && flags != cudaMemAttachSingle))
        return fail(cudaErrorInvalidValue);
    return cudaSuccess;
}

cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void* userData,
                                  unsigned int flags) {
    if (!valid_stream(stream)) return fail(cudaErrorInvalidResourceHandle);
    if (callback == nullptr || flags != 0) return fail(cudaErrorInvalidValue);
    callback(stream, cudaSuccess, userData);  // the stream's work is done already
    return cudaSuccess;
}

cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void* userData) {
    if (!valid_stream(stream)) return fail(cudaErrorInvalidResourceHandle);
    if (fn == nullptr) return fail(cudaErrorInvalidValue);
    fn(userData);
    return cudaSuccess;
}

// ---- events: host time, since nothing runs on a GPU -------------------------

cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int flags) {
    if (event == nullptr || (flags & ~0x7u) != 0 ||
        ((flags & cudaEventInterprocess) && !(flags & cudaEventDisableTiming)))
        return fail(cudaErrorInvalidValue);
    auto* e = new CUevent_st;
    e->flags = flags;
    g_events.insert(e);
    *event = e;
    return cudaSuccess;
}

cudaError_t cudaEventCreate(cudaEvent_t* event) { return cudaEventCreateWithFlags(event, cudaEventDefault); }

cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream, unsigned int flags) {
    if (!valid_event(event) || !valid_stream(stream)) return fail(cudaErrorInvalidResourceHandle);
    if ((flags & ~cudaEventRecordExternal) != 0) return fail(cudaErrorInvalidValue);
    event->at = std::chrono::steady_clock::now();  // launches have already run to completion
    event->recorded = true;
    return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) { return cudaEventRecordWithFlags(event, stream, 0); }

cudaError_t cudaEventQuery(cudaEvent_t event) {
    return valid_event(event) ? cudaSuccess : fail(cudaErrorInvalidResourceHandle);
}

cudaError_t cudaEventSynchronize(cudaEvent_t event) {
    return valid_event(event) ? cudaSuccess : fail(cudaErrorInvalidResourceHandle);
}

cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
    if (!valid_event(start) || !valid_event(end)) return fail(cudaErrorInvalidResourceHandle);
    if (ms == nullptr) return fail(cudaErrorInvalidValue);
    // Never recorded, or created without timing: CUDA's answer for both.
    if (!start->recorded || !end->recorded || ((start->flags | end->flags) & cudaEventDisableTiming))
        return fail(cudaErrorInvalidResourceHandle);
    *ms = std::chrono::duration<float, std::milli>(end->at - start->at).count();
    return cudaSuccess;
}

cudaError_t cudaEventDestroy(cudaEvent_t event) {
    if (g_events.erase(event) == 0) return fail(cudaErrorInvalidResourceHandle);
    delete event;
    return cudaSuccess;
}

// ---- the device as a whole ------------------------------------------------------------

cudaError_t cudaDeviceReset() {
    // CUDA destroys the context: every allocation, stream and event goes.
    for (auto it = g_allocations.begin(); it != g_allocations.end();) {
        const auto next = std::next(it);
        if (it->second.kind != MemoryKind::Variable) unmap_allocation(const_cast<unsigned char*>(it->first), ~0u);
        it = next;
    }
    for (cudaStream_t s : g_streams) delete s;
    g_streams.clear();
    for (cudaEvent_t e : g_events) delete e;
    g_events.clear();
    simt::detail::reset_device_settings();
    g_last_error = cudaSuccess;
    return cudaSuccess;
}
