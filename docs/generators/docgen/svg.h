// A very small SVG writer for the documentation generator: rectangles, text
// and lines, written in a fixed order so the output is byte-for-byte
// reproducible.
#pragma once

#include <cstdio>
#include <sstream>
#include <string>

namespace wb::docgen {

class Svg {
 public:
  Svg(int width, int height) : width_(width), height_(height) {}

  void rect(double x, double y, double w, double h, const std::string& fill,
            const std::string& stroke = "none", double strokeWidth = 1.0,
            const std::string& dash = "") {
    body_ << "<rect x=\"" << x << "\" y=\"" << y << "\" width=\"" << w << "\" height=\"" << h
          << "\" fill=\"" << fill << "\" stroke=\"" << stroke << "\" stroke-width=\""
          << strokeWidth << "\"";
    if (!dash.empty()) body_ << " stroke-dasharray=\"" << dash << "\"";
    body_ << "/>\n";
  }
  void text(double x, double y, const std::string& s, double size = 11,
            const std::string& anchor = "start", const std::string& weight = "normal",
            const std::string& fill = "#222") {
    body_ << "<text x=\"" << x << "\" y=\"" << y << "\" font-size=\"" << size
          << "\" text-anchor=\"" << anchor << "\" font-weight=\"" << weight << "\" fill=\""
          << fill << "\">" << escape(s) << "</text>\n";
  }
  void line(double x1, double y1, double x2, double y2, const std::string& stroke,
            double width = 1.0, bool arrow = false) {
    body_ << "<line x1=\"" << x1 << "\" y1=\"" << y1 << "\" x2=\"" << x2 << "\" y2=\"" << y2
          << "\" stroke=\"" << stroke << "\" stroke-width=\"" << width << "\""
          << (arrow ? " marker-end=\"url(#arrow)\"" : "") << "/>\n";
  }
  std::string str() const {
    std::ostringstream out;
    out << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width_ << "\" height=\""
        << height_ << "\" viewBox=\"0 0 " << width_ << " " << height_
        << "\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n"
        << "<defs><marker id=\"arrow\" markerWidth=\"10\" markerHeight=\"8\" refX=\"9\" "
           "refY=\"4\" orient=\"auto\"><path d=\"M0,0 L10,4 L0,8 z\" fill=\"#444\"/></marker>"
           "</defs>\n"
        << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
        << body_.str() << "</svg>\n";
    return out.str();
  }

  /// A colour per bank: 32 hues around the wheel, light enough for text.
  static std::string bankColour(int bank, bool strong = false) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "hsl(%d,%d%%,%d%%)", (bank * 360) / 32, strong ? 75 : 60,
                  strong ? 55 : 88);
    return buf;
  }

 private:
  static std::string escape(const std::string& s) {
    std::string out;
    for (char c : s) {
      if (c == '<') out += "&lt;";
      else if (c == '>') out += "&gt;";
      else if (c == '&') out += "&amp;";
      else out += c;
    }
    return out;
  }
  int width_;
  int height_;
  std::ostringstream body_;
};

}  // namespace wb::docgen
