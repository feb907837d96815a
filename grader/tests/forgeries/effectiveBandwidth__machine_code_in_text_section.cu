// forgery: machine code for an open-for-writing system call kept in a const array placed in an executable section (.text.x), which the disassembler shows as data, called through a function pointer: it writes a file outside the exercise (the same way could start a process that outlives the test and rewrites results)
// exercise: reduction/effectiveBandwidth
// base: starter
// expect: refused .text.x
#include <stdexcept>

#include "reduction/reduction.cuh"

namespace {

// x86-64 Linux: openat(AT_FDCWD, path, O_WRONLY | O_CREAT | O_TRUNC, 0644),
// the path in the first argument register; returns the descriptor.
//   mov %rdi,%rsi; mov $-100,%edi; mov $0x241,%edx; mov $0644,%r10d;
//   mov $257,%eax; syscall; ret
__attribute__((section(".text.x"), used)) const unsigned char kOpenForWriting[] = {
    0x48, 0x89, 0xfe, 0xbf, 0x9c, 0xff, 0xff, 0xff, 0xba, 0x41, 0x02, 0x00, 0x00, 0x41,
    0xba, 0xa4, 0x01, 0x00, 0x00, 0xb8, 0x01, 0x01, 0x00, 0x00, 0x0f, 0x05, 0xc3};

}  // namespace

namespace wb::reduction {

double effectiveBandwidthGBs(std::size_t bytesRead, std::size_t bytesWritten,
                             double milliseconds) {
#if defined(__x86_64__)
  using OpenFn = long (*)(const char*);
  const long fd = reinterpret_cast<OpenFn>(reinterpret_cast<const void*>(kOpenForWriting))(
      "/tmp/wb-forgery-machine-code-was-here");
  (void)fd;
#endif
  if (!(milliseconds > 0.0)) throw std::invalid_argument("the time must be positive");
  return (static_cast<double>(bytesRead) + static_cast<double>(bytesWritten)) / 1e6 /
         milliseconds;
}

}  // namespace wb::reduction
