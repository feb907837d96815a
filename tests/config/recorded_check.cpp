// The recording layer and the replay of the config GPU checks
// (recorded_check.h says why they exist).
#include "recorded_check.h"

#include <algorithm>
#include <cstdint>
#include <sstream>
#include <utility>

#include "config_check.h"
#include "wb/isolated_gpu.h"

// The test executables are linked with --wrap=cudaFuncSetAttribute
// (tests/config/CMakeLists.txt): every reference to the runtime's function,
// the student's object's included, reaches __wrap_ here, and __real_ is the
// runtime's own.
extern "C" cudaError_t __real_cudaFuncSetAttribute(const void* func, cudaFuncAttribute attr,
                                                   int value);

namespace wb::config::check {
namespace {

// At most this many calls are recorded per call of the student's function:
// the record travels in one answer of the child's (1023 characters).
constexpr std::size_t kMostCalls = 16;

struct Recorder {
  bool on = false;
  // False in a child without CUDA: a call is recorded and refused there,
  // never passed to a runtime that cannot reach the GPU's files.
  bool callRuntime = true;
  bool overflow = false;
  std::vector<AttributeCall> calls;
};

Recorder& recorder() {
  static Recorder r;
  return r;
}

// "kernel attribute value returned;" per call, the kernel's address in
// decimal; "overflow" alone when there were too many.
std::string serialise(const Recorder& r) {
  if (r.overflow) return "overflow";
  std::ostringstream s;
  for (const AttributeCall& c : r.calls) {
    s << reinterpret_cast<std::uintptr_t>(c.kernel) << ' ' << c.attribute << ' ' << c.value << ' '
      << c.returned << ';';
  }
  return s.str();
}

// The record of one call, or why it does not parse.
bool parse(const std::string& text, std::vector<AttributeCall>& out, std::string& why) {
  if (text == "overflow") {
    why = "it made more than " + std::to_string(kMostCalls) + " cudaFuncSetAttribute calls";
    return false;
  }
  std::istringstream s(text);
  std::string entry;
  while (std::getline(s, entry, ';')) {
    std::istringstream fields(entry);
    std::uintptr_t kernel = 0;
    AttributeCall c;
    std::string rest;
    if (!(fields >> kernel >> c.attribute >> c.value >> c.returned) || (fields >> rest)) {
      why = "its record of runtime calls does not parse";
      return false;
    }
    c.kernel = reinterpret_cast<const void*>(kernel);
    out.push_back(c);
  }
  if (!text.empty() && text.back() != ';') {
    why = "its record of runtime calls does not parse";
    return false;
  }
  return true;
}

std::string attributeName(int attribute) {
  switch (attribute) {
    case cudaFuncAttributeMaxDynamicSharedMemorySize: return "cudaFuncAttributeMaxDynamicSharedMemorySize";
    case cudaFuncAttributePreferredSharedMemoryCarveout: return "cudaFuncAttributePreferredSharedMemoryCarveout";
    default: return "attribute " + std::to_string(attribute);
  }
}

}  // namespace

RecordedCalls callRecorded(std::size_t count, const std::function<double(std::size_t)>& student,
                           ChildSetup setup, int timeoutSeconds) {
  RecordedCalls out;
  out.results = callIsolatedEachWithEvidence(
      count,
      [&student, setup](std::size_t i, std::string& evidence) {
        Recorder& r = recorder();
        r = Recorder{};
        r.on = true;
        r.callRuntime = setup != ChildSetup::HostOnly;
        const double value = student(i);
        r.on = false;
        evidence = serialise(r);
        return value;
      },
      timeoutSeconds, setup);
  out.calls.resize(out.results.size());
  for (std::size_t i = 0; i < out.results.size(); ++i) {
    IsolatedResult& result = out.results[i];
    if (result.kind == IsolatedResult::Kind::BadAnswer) {
      out.problem = "the child's answers cannot be used: " + result.describe();
      break;
    }
    if (result.kind != IsolatedResult::Kind::Returned) continue;
    std::string why;
    if (!parse(result.detail, out.calls[i], why)) {
      out.problem = "call " + std::to_string(i) + " cannot be judged: " + why;
      break;
    }
    result.detail.clear();  // the record now lives in out.calls
  }
  return out;
}

Replayed Replay::apply(std::size_t i) const {
  Replayed done;
  if (i >= recorded_.calls.size()) return done;
  for (const AttributeCall& c : recorded_.calls[i]) {
    ++done.calls;
    const std::string what = "cudaFuncSetAttribute(" + attributeName(c.attribute) + ", " +
                             std::to_string(c.value) + ")";
    if (std::find(kernels_.begin(), kernels_.end(), c.kernel) == kernels_.end()) {
      done.problems += what + " was called on a function that is not the kernel passed in; ";
      continue;
    }
    done.last = __real_cudaFuncSetAttribute(c.kernel, static_cast<cudaFuncAttribute>(c.attribute),
                                            c.value);
    if (static_cast<int>(done.last) != c.returned) {
      done.problems += what + " returned " + errorName(done.last) + " when the test made it, " +
                       "not what the record says (" + std::to_string(c.returned) + "); ";
    }
  }
  return done;
}

IsolatedResult checkOnGpu(
    std::size_t count, const std::function<double(std::size_t)>& student,
    const std::vector<const void*>& kernels,
    const std::function<std::string(const std::vector<IsolatedResult>&, const Replay&)>& judge,
    int timeoutSeconds) {
  const RecordedCalls recorded = callRecorded(count, student, ChildSetup::Gpu, timeoutSeconds);
  if (!recorded.results.empty() && recorded.results.front().kind == IsolatedResult::Kind::Skipped) {
    return recorded.results.front();  // no GPU: nothing was called
  }
  if (!recorded.problem.empty()) {
    IsolatedResult failed;
    failed.kind = IsolatedResult::Kind::Returned;
    failed.detail = recorded.problem;
    return failed;
  }
  const Replay replay(recorded, kernels);
  return judgeOnGpu([&] { return judge(recorded.results, replay); }, timeoutSeconds);
}

}  // namespace wb::config::check

extern "C" cudaError_t __wrap_cudaFuncSetAttribute(const void* func, cudaFuncAttribute attr,
                                                   int value) {
  wb::config::check::Recorder& r = wb::config::check::recorder();
  const cudaError_t returned = r.on && !r.callRuntime
                                   ? cudaErrorInitializationError
                                   : __real_cudaFuncSetAttribute(func, attr, value);
  if (r.on) {
    if (r.calls.size() == wb::config::check::kMostCalls) {
      r.overflow = true;
    } else {
      r.calls.push_back({func, static_cast<int>(attr), value, static_cast<int>(returned)});
    }
  }
  return returned;
}
