// A false report of compute-sanitizer's racecheck (CUDA 13.0, H100), reduced from the
// kernels accc generates for a worker loop holding a vector reduction (difftest seeds 15
// and 21 of the race hunt): the rows of a block (one worker each, 128 threads) run different
// numbers of per-row named barriers (`bar.sync row+1, 128`), then two reductions across rows go
// through the same shared slots, every write and read separated by a barrier all threads
// reach (`__syncthreads`). By the PTX ISA nothing here races, and the answer is always right;
// racecheck still reports RAW hazards on the second reduction. With equal numbers of named
// barriers per row it reports none. So a racecheck report on a kernel with row barriers is
// checked with the emulated device's race detector (`-gpu=emu`, `PTXRT_EMU_RACECHECK`) before
// it is taken for a bug of accc.
//
//   nvcc -arch=sm_90 -o named racecheck-named-barriers.cu && ./named   # replica: 0 gangs wrong
//   compute-sanitizer --tool racecheck ./named                          # reports hazards
#include <cstdio>
__global__ void k(long long *out) {
  __shared__ long long s[16];
  int row = threadIdx.y, lane = threadIdx.x;
  for (int it = 0; it <= row + blockIdx.x; it++)
    asm volatile("bar.sync %0, %1;" :: "r"(row + 1), "r"(blockDim.x) : "memory");
  long long v1 = row + 1, v2 = 3 * row + 1;
  __syncthreads();
  if (lane == 0) s[row] = v1;
  __syncthreads();
  long long a = s[0] + s[1] + s[2] + s[3];
  __syncthreads();
  __syncthreads();
  if (lane == 0) s[row] = v2;
  __syncthreads();
  long long b = s[0] + s[1] + s[2] + s[3];
  __syncthreads();
  if (lane == 0 && row == 0) { out[2 * blockIdx.x] = a; out[2 * blockIdx.x + 1] = b; }
}
int main() {
  long long *d, h[14]; cudaMalloc(&d, sizeof h);
  k<<<7, dim3(128, 4)>>>(d); cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  int bad = 0; for (int g = 0; g < 7; g++) bad += h[2 * g] != 10 || h[2 * g + 1] != 22;
  printf("replica: %d gangs wrong\n", bad); return 0;
}
