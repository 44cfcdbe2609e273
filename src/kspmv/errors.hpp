#pragma once
/// @file
/// The exceptions kspmv throws. Every one derives from kspmv::error, and from the standard
/// exception that says what kind of failure it is: an argument kspmv cannot use is a
/// std::invalid_argument (kspmv::invalid_argument), a failure of the device or runtime underneath
/// is a std::runtime_error (kspmv::device_error). Each message names what is wrong: the shapes,
/// the first bad row, the CUDA call and CUDA's own message.

#include <stdexcept>
#include <string>

namespace kspmv {

/// The base of every exception kspmv throws: `catch (const kspmv::error& e)` catches them all.
/// Each also derives from one standard exception, so `catch (const std::exception&)` catches them
/// too.
class error {
 public:
  virtual ~error() = default;
  /// @return the message: what failed, and the shapes, row or CUDA error involved.
  virtual const char* what() const noexcept = 0;
};

/// An argument kspmv cannot use. Thrown before anything is enqueued: y and the handle are as they
/// were before the call.
class invalid_argument : public std::invalid_argument, public error {
 public:
  /// @param message what is wrong, naming the argument.
  explicit invalid_argument(const std::string& message) : std::invalid_argument(message) {}
  /// @copydoc error::what
  const char* what() const noexcept override { return std::invalid_argument::what(); }
};

/// The shapes of op(A), x and y do not agree; the message names all of them.
class dimension_mismatch : public invalid_argument {
 public:
  using invalid_argument::invalid_argument;
};

/// A's CSR arrays break an invariant (row_map starts at 0, never decreases, ends at the number of
/// entries; every column index lies in [0, number of columns)); the message names the first
/// offending row.
class malformed_matrix : public invalid_argument {
 public:
  using invalid_argument::invalid_argument;
};

/// A mode string, an algorithm the backend lacks, a handle reused on another matrix structure, a
/// setting made after the handle's first call, a null pointer or overlapping x and y.
class unsupported_argument : public invalid_argument {
 public:
  using invalid_argument::invalid_argument;
};

/// The device or the runtime underneath failed: a CUDA call returned an error, or Kokkos or Kokkos
/// Kernels threw. The message carries the underlying one (for CUDA: the call, and
/// cudaGetErrorString's text).
class device_error : public std::runtime_error, public error {
 public:
  /// @param message what failed, with the underlying message.
  /// @param cuda_error the cudaError_t value as an int, or 0 where CUDA did not report it.
  explicit device_error(const std::string& message, int cuda_error = 0)
      : std::runtime_error(message), cuda_error_(cuda_error) {}
  /// @copydoc error::what
  const char* what() const noexcept override { return std::runtime_error::what(); }
  /// @return the cudaError_t value CUDA returned, as an int; 0 where the failure was not CUDA's.
  int cuda_error() const noexcept { return cuda_error_; }

 private:
  int cuda_error_;
};

/// Memory for a plan, its workspace or a staging copy could not be allocated (on the device, or
/// on the host for host execution spaces).
class out_of_memory : public device_error {
 public:
  using device_error::device_error;
};

/// The GPU in use cannot run this build of kspmv: its compute capability is not among the CUDA
/// architectures kspmv was compiled for. The message names both; rebuild kspmv with
/// CMAKE_CUDA_ARCHITECTURES including the device's.
class unsupported_device : public device_error {
 public:
  using device_error::device_error;
};

}  // namespace kspmv
