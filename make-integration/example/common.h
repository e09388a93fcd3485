// Shared by every unit of the example: sizes, a device helper and a host check macro.
#pragma once
#include <cstdio>

#define BLOCK 256
#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL %s: %s\n", __func__, cudaGetErrorString(e_)); return 1; } } while (0)

__device__ __forceinline__ int global_index() { return blockIdx.x * blockDim.x + threadIdx.x; }
__device__ __forceinline__ int clamp_int(int v, int lo, int hi) { return v < lo ? lo : (v > hi ? hi : v); }

int run_vec_add(int n);
int run_saxpy(int n);
int run_reduce(int n);
int run_histogram(int n);
int run_transpose(int n);
int run_stencil(int n);
int run_scan(int n);
int run_dot(int n);
