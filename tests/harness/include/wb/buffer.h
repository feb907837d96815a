/**
 * @file buffer.h
 * @brief Device buffers with guard zones that are poisoned before each run.
 */
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "wb/cuda_check.h"
#include "wb/verify.h"

namespace wb {

/// Fills @p words 4-byte words at @p dst with @p value (cudaMemset only
/// writes bytes). Asynchronous on @p stream; errors are thrown by WB_CUDA.
void fillWords(void* dst, std::size_t words, std::uint32_t value, cudaStream_t stream = nullptr);

/**
 * @brief A device array of @p n elements with a poisoned guard zone on
 *        each side, so unwritten elements and stray writes can be found.
 *
 * Layout in device memory: [guard | n elements | guard]. data() points at the
 * first element; kernels must write exactly [0, n).
 */
template <class T>
class DeviceBuffer {
 public:
  /// Guard elements on each side unless the caller asks otherwise.
  static constexpr std::size_t kDefaultGuard = 4096;

  explicit DeviceBuffer(std::size_t n, std::size_t guard = kDefaultGuard) : n_(n), guard_(guard) {
    WB_CUDA(cudaMalloc(&base_, totalBytes()));
  }
  ~DeviceBuffer() { cudaFree(base_); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  T* data() { return base_ + guard_; }
  const T* data() const { return base_ + guard_; }
  std::size_t size() const { return n_; }
  std::size_t bytes() const { return n_ * sizeof(T); }

  /// Writes the poison word over the elements and both guard zones.
  void poison(cudaStream_t stream = nullptr) {
    fillWords(base_, totalBytes() / sizeof(std::uint32_t), kPoisonWord, stream);
  }
  /// Copies @p host (exactly size() elements) into the buffer.
  void upload(const std::vector<T>& host) {
    if (host.size() != n_) throw std::invalid_argument("upload: size mismatch");
    WB_CUDA(cudaMemcpy(data(), host.data(), bytes(), cudaMemcpyHostToDevice));
  }
  /// The size() elements, copied to the host.
  std::vector<T> download() const {
    std::vector<T> host(n_);
    WB_CUDA(cudaMemcpy(host.data(), data(), bytes(), cudaMemcpyDeviceToHost));
    return host;
  }
  /// Checks the guard zones and that no element still holds poison.
  /// @return an empty string, or a message naming @p kernel and the first
  /// bad position (see checkPoisonAndGuards).
  std::string checkWritten(const std::string& kernel,
                           const IndexFormatter& where = flatIndex) const {
    std::vector<T> whole(n_ + 2 * guard_);
    WB_CUDA(cudaMemcpy(whole.data(), base_, totalBytes(), cudaMemcpyDeviceToHost));
    return checkPoisonAndGuards(whole, guard_, n_, kernel, where);
  }

 private:
  std::size_t totalBytes() const { return (n_ + 2 * guard_) * sizeof(T); }
  std::size_t n_;
  std::size_t guard_;
  T* base_ = nullptr;
};

}  // namespace wb
