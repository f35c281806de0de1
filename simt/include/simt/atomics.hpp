// CUDA's atomic functions (atomics.cpp).
#pragma once


// ---- atomics: one fiber runs at a time, so a plain read-modify-write is
// atomic; they live in the runtime (not instrumented) and tell the race check
// the access was atomic.
int atomicAdd(int* address, int value);
unsigned atomicAdd(unsigned* address, unsigned value);
unsigned long long atomicAdd(unsigned long long* address, unsigned long long value);
float atomicAdd(float* address, float value);
double atomicAdd(double* address, double value);
int atomicSub(int* address, int value);
unsigned atomicSub(unsigned* address, unsigned value);
int atomicExch(int* address, int value);
unsigned atomicExch(unsigned* address, unsigned value);
float atomicExch(float* address, float value);
int atomicMax(int* address, int value);
unsigned atomicMax(unsigned* address, unsigned value);
int atomicMin(int* address, int value);
unsigned atomicMin(unsigned* address, unsigned value);
unsigned long long atomicExch(unsigned long long* address, unsigned long long value);
long long atomicMax(long long* address, long long value);
unsigned long long atomicMax(unsigned long long* address, unsigned long long value);
long long atomicMin(long long* address, long long value);
unsigned long long atomicMin(unsigned long long* address, unsigned long long value);
int atomicAnd(int* address, int value);
unsigned atomicAnd(unsigned* address, unsigned value);
unsigned long long atomicAnd(unsigned long long* address, unsigned long long value);
int atomicOr(int* address, int value);
unsigned atomicOr(unsigned* address, unsigned value);
unsigned long long atomicOr(unsigned long long* address, unsigned long long value);
int atomicXor(int* address, int value);
unsigned atomicXor(unsigned* address, unsigned value);
unsigned long long atomicXor(unsigned long long* address, unsigned long long value);
unsigned atomicInc(unsigned* address, unsigned limit);  // ((old >= limit) ? 0 : old + 1)
unsigned atomicDec(unsigned* address, unsigned limit);  // ((old == 0 || old > limit) ? limit : old - 1)
int atomicCAS(int* address, int compare, int value);
unsigned atomicCAS(unsigned* address, unsigned compare, unsigned value);
unsigned long long atomicCAS(unsigned long long* address, unsigned long long compare, unsigned long long value);
