// A reference-style variants.ini (Fairy-Stockfish's format, documented in the header of its
// src/variants.ini): sections `[name]` or `[name:parent]`, each a list of `key = value` lines.
// Read as written, with each line's number, so that the importer can name where a key stands.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace palace {

struct IniEntry {
  std::string key, value;
  int line = 0;
};

struct IniSection {
  std::string name, parent;  // parent empty: the reference's default template
  int line = 0;
  std::vector<IniEntry> entries;  // in file order; a key written twice keeps its last value

  const IniEntry* find(const std::string& key) const;
};

struct IniFile {
  std::string name;  // as messages name it
  std::vector<IniSection> sections;

  const IniSection* section(const std::string& name) const;  // the last of that name, or null
};

// Throws Error "NAME:LINE: why" for a line that is neither blank, a comment (`#`, `;`), a section
// header nor `key = value`, and for a key before the first section.
IniFile read_ini(const std::string& text, const std::string& name);

// Whether `text` looks like such a file: some line is a section header alone.
bool is_ini_text(const std::string& text);

}  // namespace palace
