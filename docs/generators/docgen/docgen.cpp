// wb_docgen: draws the documentation's pictures from the same host-side index
// maps the tests use (chapters/layout/layout_maps.h,
// chapters/transpose/transpose_maps.h), so a picture cannot disagree with the
// code it illustrates.
//
//   wb_docgen OUTDIR
//
// Writes into OUTDIR:
//   bank_<shape>_<row|col>[_pad].svg  one warp's shared-memory access on a tile
//   transpose_tile.svg                how a transpose block reads, stages, writes
//   transpose_banks_<unpadded|padded>.svg  the tile's column read, lane by lane
//   layout_diagrams.md                the page that shows them per kernel
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>

#include "layout/layout_maps.h"
#include "svg.h"
#include "transpose/transpose_maps.h"

namespace wb::docgen {
namespace {

std::string outDir;

void save(const std::string& name, const std::string& content) {
  std::ofstream f(outDir + "/" + name);
  if (!f) throw std::runtime_error("cannot write " + outDir + "/" + name);
  f << content;
}

/// A row of 32 lane boxes, each showing and coloured by the bank it hits,
/// then a bar per bank whose height is the distinct words asked of it.
void laneStripAndHistogram(Svg& svg, double x, double y, const bank::WarpAddresses& addr) {
  const double w = 22;
  svg.text(x - 6, y + 15, "lane", 10, "end");
  svg.text(x - 6, y + 37, "bank", 10, "end");
  for (int lane = 0; lane < 32; ++lane) {
    const int b = bank::bankOf(addr[lane]);
    svg.text(x + lane * w + w / 2, y + 15, std::to_string(lane), 9, "middle");
    svg.rect(x + lane * w + 1, y + 22, w - 2, 20, Svg::bankColour(b, true), "#333", 0.6);
    svg.text(x + lane * w + w / 2, y + 36, std::to_string(b), 10, "middle", "bold", "white");
  }
  // Distinct words per bank: the conflict's "ways" is the tallest bar.
  const double base = y + 150;
  svg.text(x - 6, base - 40, "words", 10, "end");
  svg.text(x - 6, base - 28, "per bank", 10, "end");
  for (int b = 0; b < 32; ++b) {
    bank::WarpAddresses only{};
    std::uint32_t mask = 0;
    for (int lane = 0; lane < 32; ++lane) {
      only[lane] = addr[lane];
      if (bank::bankOf(addr[lane]) == b) mask |= 1u << lane;
    }
    const int words = bank::conflictWays(only, mask);
    const double h = 6.0 + (words - 1) * (90.0 / 31.0);  // 1 word: 6 px, 32 words: 96 px
    if (words > 0) {
      svg.rect(x + b * w + 3, base - h, w - 6, h, Svg::bankColour(b, true), "#333", 0.6);
      svg.text(x + b * w + w / 2, base - h - 3, std::to_string(words), 9, "middle");
    }
    svg.text(x + b * w + w / 2, base + 12, std::to_string(b), 9, "middle", "normal", "#555");
  }
  svg.line(x, base, x + 32 * w, base, "#333", 0.8);
  svg.text(x + 16 * w, base + 26, "bank", 10, "middle");
}

std::string accessName(layout::Access a) { return a == layout::Access::Row ? "row" : "col"; }

std::string bankDiagramFile(const char* shapeName, layout::Access a, bool padded) {
  return std::string("bank_") + shapeName + "_" + accessName(a) + (padded ? "_pad" : "") + ".svg";
}

/// One warp's access to a layout tile: the tile coloured by bank, the cells
/// warp 0 touches outlined with their lane numbers, then the lane strip.
void drawLayoutBankDiagram(const layout::TileShape& s, const char* shapeName, layout::Access a,
                           bool padded) {
  const int pitch = s.pitch(padded);
  const double cell = 13, left = 60, top = 56;
  const double stripTop = top + s.dimY * cell + 24;
  Svg svg(800, static_cast<int>(stripTop + 200));
  const int ways = layout::conflictWays(s, a, padded);
  const std::string title = std::string(shapeName) + " tile " + std::to_string(s.dimY) + " x " +
                            std::to_string(pitch) + (padded ? " (padded)" : "") + ", " +
                            (a == layout::Access::Row ? "row" : "column") + " access by warp 0: " +
                            (ways == 1 ? "conflict-free" : std::to_string(ways) + "-way conflict");
  svg.text(left, 22, title, 15, "start", "bold");
  svg.text(left, 40,
           "cell colour = bank of the 4-byte word; outlined cells = the 32 lanes of warp 0; "
           "grey = padding",
           10, "start", "normal", "#555");
  for (int r = 0; r < s.dimY; ++r) {
    for (int c = 0; c < pitch; ++c) {
      const bool pad = c >= s.dimX;
      svg.rect(left + c * cell, top + r * cell, cell, cell,
               pad ? "#d9d9d9" : Svg::bankColour((r * pitch + c) % 32), "#fff", 0.5);
    }
  }
  const bank::WarpAddresses addr = layout::warpAddresses(s, a, padded);
  for (int lane = 0; lane < 32; ++lane) {
    const int off = static_cast<int>(addr[lane] / 4);
    const double x = left + (off % pitch) * cell, y = top + (off / pitch) * cell;
    svg.rect(x, y, cell, cell, Svg::bankColour((off) % 32, true), "#000", 1.2);
    svg.text(x + cell / 2, y + cell - 3.5, std::to_string(lane), 7, "middle", "bold", "white");
  }
  laneStripAndHistogram(svg, left, stripTop, addr);
  save(bankDiagramFile(shapeName, a, padded), svg.str());
}

/// A region of a matrix as a grid, with the cells @p lanes touches outlined.
template <class CellOf>
void drawRegion(Svg& svg, double x, double y, int rows, int cols, double cell,
                const std::string& title, CellOf cellOfLane, const std::string& fill) {
  svg.text(x, y - 8, title, 11, "start", "bold");
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) svg.rect(x + c * cell, y + r * cell, cell, cell, fill, "#fff", 0.5);
  }
  for (int lane = 0; lane < 32; ++lane) {
    const transpose::Cell at = cellOfLane(lane);
    svg.rect(x + at.col * cell, y + at.row * cell, cell, cell, "#3b6fb6", "#000", 0.8);
    svg.text(x + at.col * cell + cell / 2, y + at.row * cell + cell - 2.5, std::to_string(lane), 5,
             "middle", "bold", "white");
  }
}

void drawTransposeTile() {
  using namespace transpose;
  const TileGeometry g = kPaddedTile;
  const double cell = 9;
  Svg svg(900, 515);
  svg.text(20, 24, "One block of transposeSmemPad (32 x 16 threads): warp 0 in each phase", 15,
           "start", "bold");
  // Read phase: block (0, 0), thread (lane, 0).
  drawRegion(svg, 20, 70, g.blockY, g.blockX, cell, "input 16 x 32: read one row",
             [&](int lane) { return readCell(g, 0, 0, lane, 0, 0); }, "#e8eef7");
  // The tile: write phase reads a column (two 16-row columns per warp).
  drawRegion(svg, 340, 70, g.blockY, g.pitch(), cell,
             "tile 16 x (32+2): read two columns",
             [&](int lane) {
               const int off = tileReadOffset(g, lane % g.blockX, lane / g.blockX, 0);
               return Cell{off / g.pitch(), off % g.pitch()};
             },
             "#f3ecdf");
  for (int r = 0; r < g.blockY; ++r) {
    for (int c = g.blockX; c < g.pitch(); ++c) {
      svg.rect(340 + c * cell, 70 + r * cell, cell, cell, "#bbbbbb", "#fff", 0.5);
    }
  }
  // Output: 32 x 16; warp 0 writes two rows.
  drawRegion(svg, 690, 70, g.colsPerBlock(), g.blockY, cell,
             "output 32 x 16: write two rows",
             [&](int lane) { return writeCell(g, 0, 0, lane % g.blockX, lane / g.blockX, 0); },
             "#e6f2e6");
  svg.line(314, 140, 334, 140, "#444", 1.5, true);
  svg.line(656, 140, 684, 140, "#444", 1.5, true);
  const bank::WarpAddresses unpadded = tileWarpAddresses(kTile, TileAccess::ColumnLoad, 0, 0);
  const bank::WarpAddresses padded = tileWarpAddresses(g, TileAccess::ColumnLoad, 0, 0);
  const double ty = 400;
  svg.text(20, ty, "Why the padding: the tile's column read in the write phase", 13, "start",
           "bold");
  const std::string lines[] = {
      "Without padding every tile row starts in bank 0: the 16 lanes walking down one column",
      "all hit one bank, a " + std::to_string(bank::conflictWays(unpadded)) + "-way conflict.",
      "With 2 floats of padding row r starts in bank 2r: one column uses the even banks, the",
      "next the odd ones, " + std::to_string(bank::conflictWays(padded)) +
          "-way (conflict-free). Both global accesses are row-wise, hence coalesced:",
      "that is what the tile buys; the padding removes the price it charged in shared memory.",
  };
  for (int i = 0; i < 5; ++i) svg.text(20, ty + 22 + 17 * i, lines[i], 11);
  save("transpose_tile.svg", svg.str());

  for (const bool pad : {false, true}) {
    Svg strip(800, 240);
    const bank::WarpAddresses& a = pad ? padded : unpadded;
    strip.text(60, 22,
               std::string("transpose tile column read, ") +
                   (pad ? "padded by 2: conflict-free" :
                          "unpadded: " + std::to_string(bank::conflictWays(a)) + "-way conflict"),
               14, "start", "bold");
    laneStripAndHistogram(strip, 60, 36, a);
    save(pad ? "transpose_banks_padded.svg" : "transpose_banks_unpadded.svg", strip.str());
  }
}

void writeLayoutPage() {
  std::ostringstream md;
  md << "# Bank diagrams of the layout kernels {#layout_diagrams}\n\n"
     << "Each picture shows one warp (warp 0) of a layout kernel touching its shared tile: the "
        "tile's cells coloured by the bank that holds them, the 32 cells the warp touches "
        "outlined with their lane numbers, then, lane by lane, the bank each thread hits and "
        "how many distinct words each bank must deliver. The tallest bar is the conflict's way: "
        "the number of passes (Nsight Compute: wavefronts) the request needs.\n\n"
     << "The pictures are drawn at build time by `docs/generators/docgen` from "
        "`chapters/layout/layout_maps.h`, the index maps the tests and the bank model use; the "
        "profile tests check the same numbers on the GPU (see @ref metrics).\n\n";
  struct Shape {
    const layout::TileShape& s;
    const char* name;
    const char* section;
  };
  for (const Shape& sh : {Shape{layout::kSquare, "square", "5.2.1"},
                          Shape{layout::kRect, "rect", "5.2.2"}}) {
    md << "## " << (std::string(sh.name) == "square" ? "Square" : "Rectangular") << " tile, "
       << sh.s.dimY << " rows of " << sh.s.dimX << " ints (book " << sh.section << ")\n\n";
    for (const layout::LayoutPattern& p : layout::kLayoutPatterns) {
      const int st = layout::conflictWays(sh.s, p.store, p.padded);
      const int ld = layout::conflictWays(sh.s, p.load, p.padded);
      md << "### " << sh.name << " " << p.exercise << "\n\n"
         << "Store: " << (p.store == layout::Access::Row ? "row" : "column") << ", " << st
         << "-way. Load: " << (p.load == layout::Access::Row ? "row" : "column") << ", " << ld
         << "-way." << (p.dynamicSmem ? " Dynamic shared memory: the same banks as the static tile." : "")
         << "\n\n";
      md << "@image html " << bankDiagramFile(sh.name, p.store, p.padded)
         << " \"" << sh.name << " " << p.exercise << ": the store\"\n";
      if (p.load != p.store) {
        md << "@image html " << bankDiagramFile(sh.name, p.load, p.padded) << " \""
           << sh.name << " " << p.exercise << ": the load\"\n";
      }
      md << "\n";
    }
  }
  save("layout_diagrams.md", md.str());
}

}  // namespace
}  // namespace wb::docgen

int main(int argc, char** argv) {
  using namespace wb::docgen;
  if (argc != 2) {
    std::cerr << "usage: wb_docgen OUTDIR\n";
    return 2;
  }
  outDir = argv[1];
  try {
    for (const auto& [shape, name] :
         {std::pair{wb::layout::kSquare, "square"}, std::pair{wb::layout::kRect, "rect"}}) {
      for (const auto access : {wb::layout::Access::Row, wb::layout::Access::Column}) {
        for (const bool padded : {false, true}) drawLayoutBankDiagram(shape, name, access, padded);
      }
    }
    drawTransposeTile();
    writeLayoutPage();
  } catch (const std::exception& e) {
    std::cerr << "wb_docgen: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
