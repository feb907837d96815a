// wb::poisonSharedMemory: one block per SM (or more where an SM holds more)
// that takes the largest dynamic shared array a block may opt into.
#include "wb/cuda_check.h"
#include "wb/shared_poison.h"

namespace wb {
namespace {

__global__ void fillSharedMemory(std::uint32_t word, unsigned int words) {
  extern __shared__ std::uint32_t smem[];
  // volatile: stores that no load of this kernel reads would otherwise be
  // removed by the compiler.
  volatile std::uint32_t* shared = smem;
  for (unsigned int i = threadIdx.x; i < words; i += blockDim.x) shared[i] = word;
}

struct PoisonLaunch {
  int blocks = 0;
  std::size_t bytes = 0;
};

PoisonLaunch configure() {
  int device = 0;
  WB_CUDA(cudaGetDevice(&device));
  int sms = 0, perBlockOptin = 0, perSm = 0;
  WB_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  WB_CUDA(cudaDeviceGetAttribute(&perBlockOptin, cudaDevAttrMaxSharedMemoryPerBlockOptin,
                                       device));
  WB_CUDA(cudaDeviceGetAttribute(&perSm, cudaDevAttrMaxSharedMemoryPerMultiprocessor,
                                       device));
  PoisonLaunch p;
  p.bytes = static_cast<std::size_t>(perBlockOptin);
  const int perSmBlocks = perSm / perBlockOptin > 0 ? perSm / perBlockOptin : 1;
  // Twice the blocks the SMs hold at once: the scheduler need not spread the
  // first wave evenly, and every SM must run at least one.
  p.blocks = 2 * sms * perSmBlocks;
  return p;
}

/// The kernel's attributes belong to the CUDA context: the kernel runner
/// starts a new context for each kernel of a run of several
/// (wb::startFreshContext), so they are set before every launch (two cheap
/// calls), not once per process.
void optIn(const PoisonLaunch& p) {
  WB_CUDA(cudaFuncSetAttribute(fillSharedMemory, cudaFuncAttributeMaxDynamicSharedMemorySize,
                               static_cast<int>(p.bytes)));
  // All of the SM's memory as shared memory, so the poison covers the
  // largest configuration a student's kernel can be given.
  WB_CUDA(cudaFuncSetAttribute(fillSharedMemory,
                               cudaFuncAttributePreferredSharedMemoryCarveout,
                               cudaSharedmemCarveoutMaxShared));
}

}  // namespace

void poisonSharedMemory(cudaStream_t stream) {
  static const PoisonLaunch p = configure();
  optIn(p);
  fillSharedMemory<<<p.blocks, 1024, p.bytes, stream>>>(
      kSharedPoisonWord, static_cast<unsigned int>(p.bytes / sizeof(std::uint32_t)));
  checkLaunch("the shared-memory poison kernel (test harness)");
}

}  // namespace wb
