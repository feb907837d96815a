#include "wb/buffer.h"

namespace wb {
namespace {

__global__ void fillWordsKernel(std::uint32_t* dst, std::size_t words, std::uint32_t value) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < words;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    dst[i] = value;
  }
}

}  // namespace

void fillWords(void* dst, std::size_t words, std::uint32_t value, cudaStream_t stream) {
  if (words == 0) return;
  const unsigned threads = 256;
  const std::size_t wanted = (words + threads - 1) / threads;
  const unsigned blocks = static_cast<unsigned>(wanted < 65535 ? wanted : 65535);
  fillWordsKernel<<<blocks, threads, 0, stream>>>(static_cast<std::uint32_t*>(dst), words, value);
  WB_CUDA(cudaGetLastError());
}

}  // namespace wb
