// wb_docgen: draws the documentation's pictures from the same host-side index
// maps and models the tests use (chapters/layout/layout_maps.h,
// chapters/transpose/transpose_maps.h, chapters/shuffle/shuffle_model.h,
// chapters/constant/constant_model.h), so a picture cannot disagree with the
// code it illustrates.
//
//   wb_docgen OUTDIR
//
// Writes into OUTDIR:
//   bank_<shape>_<row|col>[_pad].svg  one warp's shared-memory access on a tile
//   transpose_tile.svg                how a transpose block reads, stages, writes
//   transpose_banks_<unpadded|padded>.svg  the tile's column read, lane by lane
//   layout_diagrams.md                the page that shows them per kernel
//   shuffle_<exchange>.svg            which lane each lane's value comes from
//   constant_halo.svg                 the stencil's shared tile and its halo
//   constant_passes.svg               constant-cache passes for 1, 4, 32 words
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "constant/constant_model.h"
#include "layout/layout_maps.h"
#include "shuffle/shuffle_model.h"
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

// ---------------------------------------------------------------------------
// Book 5.6: the warp shuffles, from shuffle_model.h's elementSource.

/// "0-1, 8-9" for the sorted numbers @p v: runs of consecutive ones joined.
std::string ranges(const std::vector<int>& v) {
  std::string out;
  for (std::size_t i = 0; i < v.size();) {
    std::size_t j = i;
    while (j + 1 < v.size() && v[j + 1] == v[j] + 1) ++j;
    if (!out.empty()) out += ", ";
    out += std::to_string(v[i]);
    if (j > i) out += "-" + std::to_string(v[j]);
    i = j + 1;
  }
  return out;
}

const char* exchangeKernel(shuffle::Exchange e) {
  switch (e) {
    case shuffle::Exchange::Broadcast: return "shflBroadcast";
    case shuffle::Exchange::Up: return "shflUp";
    case shuffle::Exchange::Down: return "shflDown";
    case shuffle::Exchange::Wrap: return "shflWrap";
    case shuffle::Exchange::Xor: return "shflXor";
    case shuffle::Exchange::XorArray: return "shflXorArray";
    case shuffle::Exchange::Swap: return "shflSwap";
    case shuffle::Exchange::WrapDouble: return "shflDouble";
    case shuffle::Exchange::WrapPlus: return "shflWrapPlus";
    case shuffle::Exchange::XorPlus: return "shflXorPlus";
    case shuffle::Exchange::XorFirstToLast: return "shflXorFirstToLast";
  }
  return "";
}

const char* exchangeFile(shuffle::Exchange e) {
  switch (e) {
    case shuffle::Exchange::Broadcast: return "shuffle_broadcast.svg";
    case shuffle::Exchange::Up: return "shuffle_up.svg";
    case shuffle::Exchange::Down: return "shuffle_down.svg";
    case shuffle::Exchange::Wrap: return "shuffle_wrap.svg";
    case shuffle::Exchange::Xor: return "shuffle_xor.svg";
    case shuffle::Exchange::XorArray: return "shuffle_xor_array.svg";
    case shuffle::Exchange::Swap: return "shuffle_swap.svg";
    case shuffle::Exchange::WrapDouble: return "shuffle_double.svg";
    case shuffle::Exchange::WrapPlus: return "shuffle_wrap_plus.svg";
    case shuffle::Exchange::XorPlus: return "shuffle_xor_plus.svg";
    case shuffle::Exchange::XorFirstToLast: return "shuffle_xor_first_to_last.svg";
  }
  return "";
}

const char* exchangeCall(shuffle::Exchange e) {
  switch (e) {
    case shuffle::Exchange::Broadcast: return "__shfl_sync(mask, v, srcLane, width)";
    case shuffle::Exchange::Up: return "__shfl_up_sync(mask, v, delta, width)";
    case shuffle::Exchange::Down: return "__shfl_down_sync(mask, v, delta, width)";
    case shuffle::Exchange::Wrap: return "__shfl_sync(mask, v, lane + offset, width)";
    case shuffle::Exchange::Xor: return "__shfl_xor_sync(mask, v, laneMask, width)";
    case shuffle::Exchange::XorArray: return "__shfl_xor_sync on each of the 4 ints";
    case shuffle::Exchange::Swap: return "two lanes of each segment trade one element";
    case shuffle::Exchange::WrapDouble: return "__shfl_sync(mask, d, lane + offset, width) on doubles";
    case shuffle::Exchange::WrapPlus: return "v + __shfl_sync(mask, v, lane + offset, width)";
    case shuffle::Exchange::XorPlus: return "v + __shfl_xor_sync(mask, v, laneMask, width)";
    case shuffle::Exchange::XorFirstToLast:
      return "v[3] = __shfl_xor_sync(mask, v[0], laneMask, width)";
  }
  return "";
}

/// The exchange's arguments in words, as the panel titles give them.
std::string argsText(shuffle::Exchange e, const shuffle::ExchangeArgs& a) {
  const std::string w = "width " + std::to_string(a.width) + ", ";
  switch (e) {
    case shuffle::Exchange::Broadcast: return w + "srcLane " + std::to_string(a.lane);
    case shuffle::Exchange::Up:
    case shuffle::Exchange::Down: return w + "delta " + std::to_string(a.lane);
    case shuffle::Exchange::Wrap:
    case shuffle::Exchange::WrapDouble:
    case shuffle::Exchange::WrapPlus: return w + "offset " + std::to_string(a.lane);
    case shuffle::Exchange::Xor:
    case shuffle::Exchange::XorArray:
    case shuffle::Exchange::XorPlus:
    case shuffle::Exchange::XorFirstToLast: return w + "laneMask " + std::to_string(a.lane);
    case shuffle::Exchange::Swap:
      return w + "firstLane " + std::to_string(a.lane) + ", secondLane " +
             std::to_string(a.secondLane) + ", firstIdx " + std::to_string(a.firstIdx) +
             ", secondIdx " + std::to_string(a.secondIdx);
  }
  return w;
}

/// @p a, after checking that it is one of the argument sets the tests run
/// (shuffle_model.h's testArgs), so every picture shows a tested case.
shuffle::ExchangeArgs testedArgs(shuffle::Exchange e, shuffle::ExchangeArgs a) {
  for (const shuffle::ExchangeArgs& t : shuffle::testArgs(e, a.width)) {
    if (t.lane == a.lane && t.secondLane == a.secondLane && t.firstIdx == a.firstIdx &&
        t.secondIdx == a.secondIdx) {
      return a;
    }
  }
  throw std::runtime_error(std::string(exchangeKernel(e)) + ": " + argsText(e, a) +
                           " is not one of the tests' argument sets");
}

/// True when element @p index of @p lane has no source under @p e and keeps
/// its own value: shfl_up's lowest and shfl_down's highest delta lanes, an
/// xor partner past the segment, every element shflSwap leaves alone. (A
/// broadcast or wrap that lands on the lane itself is a real read.)
bool keepsOwn(shuffle::Exchange e, const shuffle::ExchangeArgs& a, int lane, int index) {
  if (e == shuffle::Exchange::Broadcast || e == shuffle::Exchange::Wrap) return false;
  const shuffle::ElementSource s = shuffle::elementSource(e, a, lane, index);
  return s.lane == lane && s.index == index;
}

constexpr double kShuffleLeft = 70, kShuffleRowWidth = 704;
constexpr double kShufflePanelHeight = 190;

/// One exchange over lanes [0, lanes): the values before on top (colour =
/// the lane that holds it), after below (colour = the lane it came from),
/// an arrow from each source to its receiver, the segments shaded.
void drawShufflePanel(Svg& svg, double y, shuffle::Exchange e, const shuffle::ExchangeArgs& a,
                      int lanes) {
  const int k = shuffle::intsPerThread(e);
  // A lane is lw wide; an array lane's k ints sit inside it, pad from its edges.
  const double x = kShuffleLeft, lw = kShuffleRowWidth / lanes, pad = k == 1 ? 0 : 2.5;
  const double cw = (lw - 2 * pad) / k, inset = k == 1 ? 1 : 0.5;
  const auto cellX = [&](int lane, int i) { return x + lane * lw + pad + i * cw; };
  const double topY = y + 44, rowH = 20, botY = topY + rowH + 72;
  std::vector<int> kept;
  int keptElements = 0;
  for (int lane = 0; lane < lanes; ++lane) {
    bool any = false;
    for (int i = 0; i < k; ++i) {
      if (keepsOwn(e, a, lane, i)) {
        any = true;
        ++keptElements;
      }
    }
    if (any) kept.push_back(lane);
  }
  std::string title = argsText(e, a) + ": ";
  if (e == shuffle::Exchange::Swap) {
    title += std::to_string(lanes * k - keptElements) + " of the " + std::to_string(lanes * k) +
             " ints move; dashed: unchanged";
  } else if (kept.empty()) {
    title += "every lane receives a value from a lane of its segment";
  } else {
    title += "lane" + std::string(kept.size() > 1 ? "s " : " ") + ranges(kept) +
             " have no source and keep their own value (dashed)";
  }
  svg.text(x, y + 12, title, 11.5, "start", "bold");
  // Segments: alternate shades behind both rows, each labelled.
  for (int start = 0; start < lanes; start += a.width) {
    const int seg = start / a.width;
    const int end = std::min(start + a.width, lanes) - 1;
    svg.rect(x + start * lw, y + 20, (end - start + 1) * lw, botY + rowH + 16 - (y + 20),
             seg % 2 ? "#ececec" : "#f7f7f7");
    svg.text(x + (start + end + 1) * lw / 2, y + 31,
             (a.width >= shuffle::kWarpSize ? "one segment: " : "segment " + std::to_string(seg) + ": ") +
                 std::string("lanes ") + std::to_string(start) + "-" + std::to_string(end),
             9, "middle", "normal", "#555");
  }
  svg.text(x - 6, topY + 14, "before", 10, "end");
  svg.text(x - 6, botY + 14, "after", 10, "end");
  svg.text(x - 6, topY - 3, "lane", 9, "end", "normal", "#555");
  svg.text(x - 6, botY + rowH + 11, "lane", 9, "end", "normal", "#555");
  for (int lane = 0; lane < lanes; ++lane) {
    svg.text(x + lane * lw + lw / 2, topY - 3, std::to_string(lane), 8, "middle", "normal", "#555");
    svg.text(x + lane * lw + lw / 2, botY + rowH + 11, std::to_string(lane), 8, "middle", "normal",
             "#555");
  }
  // Arrows first, so the boxes sit on top of their ends.
  for (int lane = 0; lane < lanes; ++lane) {
    for (int i = 0; i < k; ++i) {
      if (keepsOwn(e, a, lane, i)) continue;
      const shuffle::ElementSource s = shuffle::elementSource(e, a, lane, i);
      const double fromX = cellX(s.lane, s.index) + cw / 2, toX = cellX(lane, i) + cw / 2;
      // The arrow head scales with the line: thinner lines for the narrow ints.
      svg.line(fromX, topY + rowH, toX, botY - 1, Svg::bankColour(s.lane, true),
               k == 1 ? 1.0 : 0.7, true);
    }
  }
  const double font = k == 1 ? 9 : 7;
  for (int lane = 0; lane < lanes; ++lane) {
    for (int i = 0; i < k; ++i) {
      const double cx = cellX(lane, i);
      // Before: lane's own value (its number; element index for arrays).
      const std::string own = k == 1 ? std::to_string(lane) : std::to_string(i);
      svg.rect(cx + inset, topY, cw - 2 * inset, rowH, Svg::bankColour(lane, true), "#333", 0.6);
      svg.text(cx + cw / 2, topY + 14, own, font, "middle", "bold", "white");
      // After: where it came from.
      if (keepsOwn(e, a, lane, i)) {
        svg.rect(cx + inset + 0.5, botY + 0.5, cw - 2 * inset - 1, rowH - 1, "white", "#333",
                 k == 1 ? 1.0 : 0.7, k == 1 ? "3,2" : "2,1.5");
        svg.text(cx + cw / 2, botY + 14, own, font, "middle", "bold", "#333");
      } else {
        const shuffle::ElementSource s = shuffle::elementSource(e, a, lane, i);
        svg.rect(cx + inset, botY, cw - 2 * inset, rowH, Svg::bankColour(s.lane, true), "#333",
                 0.6);
        svg.text(cx + cw / 2, botY + 14, k == 1 ? std::to_string(s.lane) : std::to_string(s.index),
                 font, "middle", "bold", "white");
      }
    }
  }
}

/// One picture per exchange: a panel per argument set.
void drawShuffle(shuffle::Exchange e, const std::vector<shuffle::ExchangeArgs>& panels) {
  const int k = shuffle::intsPerThread(e);
  const int lanes = k == 1 ? shuffle::kWarpSize : 16;  // arrays: two segments of 8, 4 ints each
  Svg svg(800, static_cast<int>(58 + panels.size() * kShufflePanelHeight));
  svg.text(kShuffleLeft, 22, std::string(exchangeKernel(e)) + ": " + exchangeCall(e), 15, "start",
           "bold");
  svg.text(kShuffleLeft, 40,
           k == 1 ? "box = a lane's value, coloured by the lane that held it before; arrow = "
                    "from the lane whose value the receiver gets; number after = that lane"
                  : "lanes " + std::to_string(0) + "-" + std::to_string(lanes - 1) +
                        " of the warp, 4 ints each; box = one int, coloured by the lane that "
                        "held it before, number = its index in that lane's array",
           10, "start", "normal", "#555");
  double y = 50;
  for (const shuffle::ExchangeArgs& a : panels) {
    drawShufflePanel(svg, y, e, testedArgs(e, a), lanes);
    y += kShufflePanelHeight;
  }
  save(exchangeFile(e), svg.str());
}

void drawShufflePictures() {
  using shuffle::Exchange;
  drawShuffle(Exchange::Broadcast, {{32, 1}, {8, 1}});
  drawShuffle(Exchange::Up, {{32, 2}, {8, 2}});
  drawShuffle(Exchange::Down, {{32, 2}, {8, 2}});
  drawShuffle(Exchange::Wrap, {{32, 2}, {8, 2}, {8, -1}});
  drawShuffle(Exchange::Xor, {{32, 1}, {32, 16}, {8, 5}});
  drawShuffle(Exchange::XorArray, {{8, 1}});
  drawShuffle(Exchange::Swap, {{8, 1, 5, 3, 0}});
}

// ---------------------------------------------------------------------------
// Book 5.5: the stencil's shared tile and the constant cache's passes, from
// constant_model.h.

/// The thread of a stencil block that copies shared slot @p slot, as the
/// contract (constant.cuh, the notes' "The halo") lays the tile out: thread
/// t copies its own input into slot t + kRadius, and threads 0 to kRadius - 1
/// also copy the left halo (slot t) and the right halo (slot
/// kRadius + kStencilBlock + t).
int haloCopier(int slot) {
  const int r = constant::kRadius, b = static_cast<int>(constant::kStencilBlock);
  if (slot < r) return slot;
  if (slot >= r + b) return slot - r - b;
  return slot - r;
}

/// A bracket under cells [first, last] of a tile row, with a note.
void bracket(Svg& svg, double x0, double x1, double y, const std::string& note,
             bool alignRight = false) {
  svg.line(x0, y, x1, y, "#333", 1.0);
  svg.line(x0, y - 5, x0, y, "#333", 1.0);
  svg.line(x1, y - 5, x1, y, "#333", 1.0);
  svg.text(alignRight ? x1 : x0, y + 13, note, 10, alignRight ? "end" : "start");
}

void drawStencilHalo() {
  using namespace constant;
  const int r = kRadius, smem = static_cast<int>(kStencilSmem);
  const unsigned int n = 257;  // one of the tests' sizes: one past a block
  const std::vector<float> in(n, 1.0f);  // nonzero everywhere inside [0, n)
  const int shown = 12;                   // slots shown at each end of the tile
  const double cell = 26, left = 100, gap = 40;
  const auto slotX = [&](int s) { return left + (s < shown ? s : s - (smem - 2 * shown) ) * cell + (s < shown ? 0 : gap); };
  const unsigned int blocks = stencilBlocksFor(n);
  Svg svg(800, static_cast<int>(92 + blocks * 150 + 30));
  svg.text(20, 22,
           "The stencil's shared tile: " + std::to_string(kStencilBlock) + " inputs plus a halo of " +
               std::to_string(r) + " on each side, " + std::to_string(smem) + " floats",
           15, "start", "bold");
  svg.text(20, 40,
           "n = " + std::to_string(n) + ", " + std::to_string(blocks) + " blocks of " +
               std::to_string(kStencilBlock) +
               " threads; the first and last " + std::to_string(shown) +
               " slots of each block's tile; number in a slot = the index of the input it holds",
           10, "start", "normal", "#555");
  // Legend.
  const double ly = 52;
  svg.rect(20, ly, 14, 12, "#9cc3e6", "#333", 0.6);
  svg.text(38, ly + 10, "the block's own inputs", 10);
  svg.rect(180, ly, 14, 12, "#f0c27b", "#333", 0.6);
  svg.text(198, ly + 10, "halo: a neighbour block's inputs", 10);
  svg.rect(380, ly, 14, 12, "#e0e0e0", "#333", 0.6);
  svg.text(398, ly + 10, "0.0: the index is outside [0, n) (the boundary condition)", 10);
  double y = 92;
  for (unsigned int b = 0; b < blocks; ++b) {
    const long long first = static_cast<long long>(b) * kStencilBlock;
    const long long outputs = std::min<long long>(kStencilBlock, n - first);
    svg.text(20, y,
             "block " + std::to_string(b) + ": outputs " + std::to_string(first) + " to " +
                 std::to_string(first + kStencilBlock - 1) + ", " + std::to_string(outputs) +
                 " of them inside [0, n)",
             12, "start", "bold");
    const double ry = y + 22;
    svg.text(left - 6, ry - 4, "slot", 9, "end", "normal", "#555");
    svg.text(left - 6, ry + 15, "holds in[ ]", 10, "end");
    svg.text(left - 6, ry + 34, "copied by", 9, "end", "normal", "#555");
    for (int s = 0; s < smem; ++s) {
      if (s >= shown && s < smem - shown) continue;
      const double x = slotX(s);
      const long long j = first + s - r;
      const bool inside = elementOrZero(in, j) != 0.0;
      const bool halo = s < r || s >= r + static_cast<int>(kStencilBlock);
      svg.text(x + cell / 2, ry - 4, std::to_string(s), 8, "middle", "normal", "#555");
      svg.rect(x + 1, ry, cell - 2, 22, !inside ? "#e0e0e0" : halo ? "#f0c27b" : "#9cc3e6", "#333",
               0.6);
      svg.text(x + cell / 2, ry + 15, inside ? std::to_string(j) : "0.0", 9, "middle",
               inside ? "normal" : "bold", "#222");
      svg.text(x + cell / 2, ry + 34, "t" + std::to_string(haloCopier(s)), 8, "middle", "normal",
               halo ? "#a0522d" : "#555");
    }
    svg.text(left + shown * cell + gap / 2, ry + 15, "...", 12, "middle", "bold");
    // Thread 0's window (slots 0 to 2r) and thread 255's (the last 2r + 1).
    const int lastT = static_cast<int>(kStencilBlock) - 1;
    const std::string win = std::to_string(2 * r + 1) + " slots, all but the centre (a0 = 0)";
    bracket(svg, slotX(0) + 2, slotX(2 * r) + cell - 2, ry + 46,
            "t0: out[" + std::to_string(first) + "] reads slots 0-" + std::to_string(2 * r) +
                (b == 0 ? ": " + win : ""));
    bracket(svg, slotX(smem - 2 * r - 1) + 2, slotX(smem - 1) + cell - 2, ry + 78,
            "t" + std::to_string(lastT) + ": out[" + std::to_string(first + lastT) + "]" +
                (first + lastT < n ? " reads slots " + std::to_string(lastT) + "-" +
                                         std::to_string(lastT + 2 * r)
                                   : ": past n, no output; it still copies its 0.0 and waits "
                                     "at the barrier"),
            true);
    y += 150;
  }
  svg.text(20, y,
           "Threads 0-" + std::to_string(r - 1) +
               " copy three slots each (own input, left halo, right halo); every other thread one.",
           10, "start", "normal", "#555");
  save("constant_halo.svg", svg.str());
}

void drawConstantPasses() {
  using namespace constant;
  const unsigned int start = 0, read = 0;
  const double x = 70, w = 22;
  const unsigned int cases[] = {1, 4, 32};
  Svg svg(800, 58 + 3 * 180);
  svg.text(x, 22, "One warp's constant read: lanes asking for the same word share one pass", 15,
           "start", "bold");
  svg.text(x, 40,
           "constantScattered: lane l reads word (start + r + l mod distinct), here start = 0, "
           "read r = 0; colour = the word",
           10, "start", "normal", "#555");
  double y = 62;
  for (const unsigned int distinct : cases) {
    WarpWords words{};
    for (int lane = 0; lane < kWarpLanes; ++lane) {
      words[lane] = lookupWord(start, read, static_cast<unsigned int>(lane), distinct);
    }
    const int passes = constantPasses(words);
    if (passes != lookupPasses(start, read, distinct)) {
      throw std::runtime_error("constantPasses and lookupPasses disagree");
    }
    const auto colour = [&](unsigned int word) {
      return Svg::bankColour(static_cast<int>((word - start) * kWarpLanes / distinct) % 32, true);
    };
    svg.text(x, y,
             "distinct = " + std::to_string(distinct) + ": the warp asks for " +
                 std::to_string(passes) + " word" + (passes > 1 ? "s" : "") +
                 ", constantPasses = " + std::to_string(passes) +
                 (passes == 1 ? " (a broadcast, like constantBroadcast's reads)"
                              : " (served one after another)"),
             12, "start", "bold");
    const double laneY = y + 12, wordY = laneY + 20 + 48, passY = wordY + 20 + 26;
    svg.text(x - 6, laneY + 14, "lane", 10, "end");
    svg.text(x - 6, wordY + 14, "word", 10, "end");
    svg.text(x - 6, passY + 14, "pass", 10, "end");
    for (int lane = 0; lane < kWarpLanes; ++lane) {
      svg.line(x + lane * w + w / 2, laneY + 20, x + (words[lane] - start) * w + w / 2, wordY - 1,
               colour(words[lane]), 0.8, true);
    }
    for (int lane = 0; lane < kWarpLanes; ++lane) {
      svg.rect(x + lane * w + 1, laneY, w - 2, 20, colour(words[lane]), "#333", 0.6);
      svg.text(x + lane * w + w / 2, laneY + 14, std::to_string(lane), 9, "middle", "bold", "white");
    }
    for (unsigned int word = start; word < start + kWarpLanes; ++word) {
      bool asked = false;
      for (const unsigned int wd : words) asked = asked || wd == word;
      svg.rect(x + (word - start) * w + 1, wordY, w - 2, 20, asked ? colour(word) : "white", "#333",
               0.6);
      svg.text(x + (word - start) * w + w / 2, wordY + 14, std::to_string(word), 9, "middle",
               asked ? "bold" : "normal", asked ? "white" : "#888");
    }
    svg.text(x + kWarpLanes * w + 6, wordY + 14, "...", 11);
    // The passes: one per distinct word, in the order the lanes first ask.
    int p = 0;
    for (int lane = 0; lane < kWarpLanes; ++lane) {
      bool first = true;
      for (int earlier = 0; earlier < lane; ++earlier) first = first && words[earlier] != words[lane];
      if (!first) continue;
      svg.rect(x + p * w + 1, passY, w - 2, 20, colour(words[lane]), "#333", 0.6);
      svg.text(x + p * w + w / 2, passY + 14, std::to_string(p + 1), 9, "middle", "bold", "white");
      ++p;
    }
    if (p < kWarpLanes) {
      svg.text(x + p * w + 6, passY + 14,
               std::to_string(passes) + (passes == 1 ? " pass" : " passes"), 11, "start", "bold");
    }
    y += 180;
  }
  save("constant_passes.svg", svg.str());
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
    drawShufflePictures();
    drawStencilHalo();
    drawConstantPasses();
  } catch (const std::exception& e) {
    std::cerr << "wb_docgen: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
