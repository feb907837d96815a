// Exercise columnReadWavefronts (book section 5.2.1.2; the book's
// end-of-chapter exercise 5). How many shared-memory wavefronts one warp's
// row or column read of a square tile takes, for any tile side; tested on
// the CPU.
// The contract is in chapters/layout/layout.cuh.
#include <stdexcept>

#include "layout/layout.cuh"

namespace wb::layout {

int sharedWavefrontsPerRequest(int tileSide, int rowPitch, bool readColumn) {
  // TODO(book 5.2.1.2): return the wavefronts the first warp's read of the
  // tile needs: the most distinct words any one bank must deliver.
  // Contract: sharedWavefrontsPerRequest in chapters/layout/layout.cuh.
  // Roughly 20 lines; `./workbook hint columnReadWavefronts` gives it step by step.
  // Until then it returns 0 and its tests fail.
  (void)tileSide;
  (void)rowPitch;
  (void)readColumn;
  return 0;
}

}  // namespace wb::layout
