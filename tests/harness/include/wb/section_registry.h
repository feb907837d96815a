/**
 * @file section_registry.h
 * @brief Per-section entries (the runner's kernels, the benchmark's
 *        sections) that each section's file registers itself, listed in the
 *        order of workbook.toml.
 *
 * workbook.toml is the one list of sections: CMake compiles a section's
 * runner or benchmark file where it exists (tests/runner/<section>_kernels.cu,
 * bench/wb_bench/<section>_bench.cu) and passes the sections, in the list's
 * order, as WB_COURSE_SECTIONS ("config,layout,..."). A file registers its
 * entry with WB_REGISTER_SECTION, so no table names the sections by hand.
 */
#pragma once

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace wb {

/// The sections of workbook.toml, in its order, as the build passed them.
inline std::vector<std::string> courseSections() {
#ifndef WB_COURSE_SECTIONS
#error "WB_COURSE_SECTIONS (the sections of workbook.toml) must be defined by the build"
#endif
  std::vector<std::string> sections;
  std::string name;
  for (const char c : std::string(WB_COURSE_SECTIONS) + ",") {
    if (c != ',') {
      name += c;
    } else if (!name.empty()) {
      sections.push_back(name);
      name.clear();
    }
  }
  return sections;
}

/// One registry per kind of entry (Entry): filled before main by
/// WB_REGISTER_SECTION, read with inCourseOrder().
template <class Entry>
class SectionRegistry {
 public:
  /// Registers @p section's entry; a section registers one entry at most.
  static bool add(const char* section, const Entry& entry) {
    if (!entries().emplace(section, entry).second) {
      throw std::logic_error(std::string("section ") + section + " is registered twice");
    }
    return true;
  }

  /// Every registered entry, in workbook.toml's order of sections.
  /// @throws std::logic_error when a registered section is not in the list
  static std::vector<Entry> inCourseOrder() {
    const std::vector<std::string> order = courseSections();
    for (const auto& [section, entry] : entries()) {
      bool listed = false;
      for (const std::string& s : order) listed = listed || s == section;
      if (!listed) {
        throw std::logic_error("section " + section + " is registered but workbook.toml does "
                               "not list it");
      }
    }
    std::vector<Entry> out;
    for (const std::string& s : order) {
      const auto found = entries().find(s);
      if (found != entries().end()) out.push_back(found->second);
    }
    return out;
  }

 private:
  // Function-local: constructed on first use, whatever the order in which
  // the files' registrations run before main.
  static std::map<std::string, Entry>& entries() {
    static std::map<std::string, Entry> all;
    return all;
  }
};

}  // namespace wb

/// Registers @p entry (an Entry of the SectionRegistry @p Registry) for
/// section @p section (an identifier, the folder's name), once per program.
#define WB_REGISTER_SECTION(Registry, section, entry) \
  [[maybe_unused]] static const bool wbRegistered_##section = Registry::add(#section, entry)
