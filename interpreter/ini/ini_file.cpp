#include "ini/ini_file.h"

#include <algorithm>
#include <cctype>
#include <sstream>

#include "core/error.h"
#include "core/text.h"

namespace palace {

namespace {

std::string trimmed(const std::string& s) {
  const std::size_t begin = s.find_first_not_of(" \t\r"), end = s.find_last_not_of(" \t\r");
  return begin == std::string::npos ? "" : s.substr(begin, end - begin + 1);
}

bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-'; }

// "[name]" or "[name:parent]": the reference's names are letters, digits, `-` and `_`.
bool read_header(const std::string& t, IniSection& section) {
  if (t.size() < 3 || t.front() != '[' || t.back() != ']') return false;
  const std::string inside = t.substr(1, t.size() - 2);
  const std::size_t colon = inside.find(':');
  section.name = inside.substr(0, colon);
  section.parent = colon == std::string::npos ? "" : inside.substr(colon + 1);
  const auto is_name = [](const std::string& n) { return !n.empty() && std::all_of(n.begin(), n.end(), is_name_char); };
  return is_name(section.name) && (colon == std::string::npos || is_name(section.parent));
}

}  // namespace

const IniEntry* IniSection::find(const std::string& key) const {
  for (auto it = entries.rbegin(); it != entries.rend(); ++it)
    if (it->key == key) return &*it;
  return nullptr;
}

const IniSection* IniFile::section(const std::string& wanted) const {
  for (auto it = sections.rbegin(); it != sections.rend(); ++it)
    if (it->name == wanted) return &*it;
  return nullptr;
}

IniFile read_ini(const std::string& text, const std::string& name) {
  IniFile file{name, {}};
  std::istringstream lines(text);
  int number = 0;
  for (std::string raw; std::getline(lines, raw);) {
    ++number;
    const std::string t = trimmed(raw);
    if (t.empty() || t.front() == '#' || t.front() == ';') continue;
    const auto fail = [&](const std::string& why) {
      throw Error(name + ":" + std::to_string(number) + ": " + quote(t) + ": " + why);
    };
    if (t.front() == '[') {
      IniSection section;
      if (!read_header(t, section)) fail("a section header is [name] or [name:parent], names of letters, digits, - and _");
      section.line = number;
      file.sections.push_back(std::move(section));
      continue;
    }
    const std::size_t equals = t.find('=');
    if (equals == std::string::npos) fail("a line is a section header or key = value");
    const std::string key = trimmed(t.substr(0, equals));
    if (key.empty() || !std::all_of(key.begin(), key.end(), is_name_char)) fail("a key is letters and digits");
    if (file.sections.empty()) fail("a key before the first section belongs to no variant");
    file.sections.back().entries.push_back({key, trimmed(t.substr(equals + 1)), number});
  }
  return file;
}

bool is_ini_text(const std::string& text) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    IniSection ignored;
    if (read_header(trimmed(line), ignored)) return true;
  }
  return false;
}

}  // namespace palace
