// The carving of one allocation into parts, on the CPU over a host buffer: PartCarver's sizing pass
// counts what its carving pass hands out, every part starts on a 256-byte boundary, and no two
// overlap; carver() hands out consecutive parts.

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "device/carver.hpp"

namespace kspmv::cuda::detail {
namespace {

struct Parts {
  unsigned char* scratch = nullptr;
  double* values = nullptr;
  std::uint16_t* places = nullptr;
  std::int64_t* counts = nullptr;
};

// 1000 bytes, 3 doubles, 129 16-bit places (258 bytes), no counts.
void carve(PartCarver& carve_part, Parts& parts) {
  carve_part(parts.scratch, 1000);
  carve_part(parts.values, 3);
  carve_part(parts.places, 129);
  carve_part(parts.counts, 0);
}

TEST(PartCarver, SizingCountsWholeAlignedPartsAndHandsOutNothing) {
  PartCarver sizing(nullptr);
  Parts parts;
  carve(sizing, parts);
  EXPECT_EQ(sizing.bytes(), std::size_t{1024 + 256 + 512});
  EXPECT_EQ(parts.scratch, nullptr);
  EXPECT_EQ(parts.values, nullptr);
  EXPECT_EQ(parts.places, nullptr);
}

TEST(PartCarver, CarvingHandsOutAlignedPartsThatDoNotOverlap) {
  PartCarver sizing(nullptr);
  Parts unused;
  carve(sizing, unused);
  std::vector<unsigned char> memory(sizing.bytes() + PartCarver::kAlignment);
  // The allocation's own start is aligned (cudaMalloc's is); a host vector's need not be.
  const auto misalignment =
      reinterpret_cast<std::uintptr_t>(memory.data()) % PartCarver::kAlignment;
  unsigned char* start =
      memory.data() + (PartCarver::kAlignment - misalignment) % PartCarver::kAlignment;
  PartCarver carving(start);
  Parts parts;
  carve(carving, parts);
  EXPECT_EQ(carving.bytes(), sizing.bytes());
  const auto offset = [&](const void* part) {
    return static_cast<std::size_t>(static_cast<const unsigned char*>(part) - start);
  };
  EXPECT_EQ(offset(parts.scratch), 0u);
  EXPECT_EQ(offset(parts.values), 1024u);
  EXPECT_EQ(offset(parts.places), 1280u);
  EXPECT_EQ(offset(parts.counts), 1792u);
  for (const void* part :
       {static_cast<const void*>(parts.scratch), static_cast<const void*>(parts.values),
        static_cast<const void*>(parts.places)}) {
    EXPECT_EQ(offset(part) % PartCarver::kAlignment, 0u);
  }
  EXPECT_GE(offset(parts.values), offset(parts.scratch) + 1000);
  EXPECT_GE(offset(parts.places), offset(parts.values) + 3 * sizeof(double));
  EXPECT_LE(offset(parts.places) + 129 * sizeof(std::uint16_t), sizing.bytes());
}

TEST(Carver, HandsOutConsecutiveParts) {
  unsigned char memory[64];
  auto carve_part = carver(memory);
  double* values = nullptr;
  std::int32_t* columns = nullptr;
  carve_part(values, 3);
  carve_part(columns, 2);
  EXPECT_EQ(reinterpret_cast<unsigned char*>(values), memory);
  EXPECT_EQ(reinterpret_cast<unsigned char*>(columns), memory + 3 * sizeof(double));
}

}  // namespace
}  // namespace kspmv::cuda::detail
