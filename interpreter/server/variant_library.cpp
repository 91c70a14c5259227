#include "server/variant_library.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/text.h"
#include "game/game.h"
#include "hooks/load_variant.h"
#include "loader/config_tree.h"
#include "server/random_id.h"

namespace palace::server {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr const char* UploadPrefix = "upload-";

bool is_upload(const std::string& name) { return name.rfind(UploadPrefix, 0) == 0; }

// Names that may become file names: no slash, no dot-dot, nothing hidden.
bool is_plain_name(const std::string& name, std::size_t max = 64) {
  return !name.empty() && name.size() <= max && name.front() != '.' &&
         std::all_of(name.begin(), name.end(), [](char c) { return std::isalnum((unsigned char)c) || c == '-' || c == '_' || c == '.'; }) &&
         name.find("..") == std::string::npos;
}

void write_file(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  if (!(out << text) || !out.flush()) throw Error(path.string() + ": cannot write the file");
}

}  // namespace

std::string VariantChoice::key() const { return json{{"name", name}, {"formations", formations}}.dump(); }

VariantChoice VariantChoice::from_key(const std::string& key) {
  const json j = json::parse(key);
  return {j.at("name").get<std::string>(), j.at("formations").get<std::map<std::string, std::string>>()};
}

VariantLibrary::VariantLibrary(fs::path shipped_dir, GameStore& store)
    : shipped_dir_(std::move(shipped_dir)),
      scratch_(fs::temp_directory_path() / ("palace-serve-" + std::to_string(getpid()) + "-" + random_hex(8))),
      store_(store) {
  fs::create_directories(scratch_ / "overlays");
}

VariantLibrary::~VariantLibrary() {
  std::error_code ignored;
  fs::remove_all(scratch_, ignored);
}

std::vector<std::string> VariantLibrary::shipped() const {
  std::vector<std::string> names;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(shipped_dir_, error))
    if (entry.path().extension() == ".yaml") names.push_back(entry.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

fs::path VariantLibrary::file_of(const std::string& name) {
  if (is_upload(name) && is_plain_name(name)) {
    const fs::path dir = scratch_ / name;
    if (fs::exists(dir / "variant.yaml")) return dir / "variant.yaml";
    const auto upload = store_.load_upload(name);
    if (!upload) throw RequestError(404, "no variant named " + quote(name));
    write_upload(dir, upload->yaml, upload->scripts);
    return dir / "variant.yaml";
  }
  const std::vector<std::string> names = shipped();
  if (std::find(names.begin(), names.end(), name) == names.end())
    throw RequestError(404, "no variant named " + quote(name));
  return shipped_dir_ / (name + ".yaml");
}

// An upload's files in its own folder. A shipped variant it imports by name is a one-line file there
// importing the real one, so that the real one's own imports still resolve from where it lives.
void VariantLibrary::write_upload(const fs::path& dir, const std::string& yaml, const std::map<std::string, std::string>& scripts) {
  fs::create_directories(dir);
  for (const auto& [file, text] : scripts) write_file(dir / file, text);
  const ConfigNode root = ConfigNode::parse_string(yaml, "variant.yaml");
  if (const ConfigNode* imports = root.find("import"))
    for (const ConfigNode* item : imports->items())
      write_file(dir / item->as_string(), json{{"import", {fs::absolute(shipped_dir_ / item->as_string()).string()}}}.dump());
  write_file(dir / "variant.yaml", yaml);
}

std::map<std::string, std::vector<std::string>> VariantLibrary::formations(const std::string& name) {
  const std::lock_guard lock(mutex_);
  std::map<std::string, std::vector<std::string>> choices;
  try {
    const ConfigNode root = ConfigNode::load_file(file_of(name).string());
    const ConfigNode* listed = root.find("formations");
    const ConfigNode* setup = root.find("setup");
    if (!listed || !setup || !listed->is_map() || !setup->is_map()) return choices;
    std::vector<std::string> names;
    for (const auto& [formation, kinds] : listed->entries()) names.push_back(formation);
    for (const auto& [side, placement] : setup->entries())
      if (placement.is_map() && placement.find("formation")) choices[side] = names;
  } catch (const RuleError& e) {
    throw RequestError(422, plain_message(e.what()));
  }
  return choices;
}

std::shared_ptr<const Variant> VariantLibrary::get(const VariantChoice& choice) {
  const std::map<std::string, std::vector<std::string>> allowed = choice.formations.empty() ? decltype(allowed){} : formations(choice.name);
  std::unique_lock lock(mutex_);
  if (const auto found = compiled_.find(choice.key()); found != compiled_.end()) return found->second;
  fs::path file = file_of(choice.name);
  if (!choice.formations.empty()) {
    // A formation is picked the way rules/README.md shows it: a file that imports the variant and
    // names one formation per side. Every name was checked against the variant's own lists, so
    // nothing a user typed reaches the YAML unchecked.
    json setup = json::object();
    for (const auto& [side, formation] : choice.formations) {
      const auto side_choices = allowed.find(side);
      if (side_choices == allowed.end()) throw RequestError(400, "no side with formations named " + quote(side));
      if (std::find(side_choices->second.begin(), side_choices->second.end(), formation) == side_choices->second.end())
        throw RequestError(400, "no formation named " + quote(formation) + " for " + side);
      setup[side] = {{"formation", {{"name", formation}}}};
    }
    const fs::path overlay = scratch_ / "overlays" / (random_hex(16) + ".yaml");
    // JSON is YAML: the absolute import path goes in as a quoted string.
    write_file(overlay, json{{"import", {fs::absolute(file).string()}}, {"setup", setup}}.dump());
    file = overlay;
  }
  // Compiling runs the variant's hooks: other requests need not wait for that. Two requests may
  // compile the same choice at once; the first kept is the one every game shares.
  lock.unlock();
  auto variant = compile(file);
  lock.lock();
  return compiled_.emplace(choice.key(), variant).first->second;
}

std::shared_ptr<const Variant> VariantLibrary::compile(const fs::path& file) {
  try {
    auto variant = load_variant(file.string());
    Game probe(variant);  // runs every hook of the set-up once, so a bad script fails here, not mid-game
    return variant;
  } catch (const Error& e) {
    throw RequestError(422, plain_message(e.what()));
  }
}

// What an upload may hold, checked before any of it is written: plain script names, a size cap, and
// no file of the server's machine read but the shipped variants it imports by name and the scripts
// it brought.
void VariantLibrary::check_upload(const std::string& yaml, const std::map<std::string, std::string>& scripts) const {
  std::size_t bytes = yaml.size();
  for (const auto& [file, text] : scripts) {
    if (!is_plain_name(file) || file == "variant.yaml")
      throw RequestError(400, "script name " + quote(file) + ": expected a plain file name like hooks.lua");
    bytes += text.size();
  }
  if (bytes > MaxUploadBytes) throw RequestError(413, "the variant and its scripts weigh over " + std::to_string(MaxUploadBytes) + " bytes");
  try {
    const ConfigNode root = ConfigNode::parse_string(yaml, "variant.yaml");
    const std::vector<std::string> names = shipped();
    if (const ConfigNode* imports = root.find("import"))
      for (const ConfigNode* item : imports->items())
        if (!item->is_scalar() || item->as_string().size() < 6 || item->as_string().substr(item->as_string().size() - 5) != ".yaml" ||
            std::find(names.begin(), names.end(), item->as_string().substr(0, item->as_string().size() - 5)) == names.end() ||
            scripts.count(item->as_string()))
          throw RequestError(400, "import: an uploaded variant may import only shipped variants, like janggi.yaml");
    if (const ConfigNode* named = root.find("scripts"); named && named->is_map())
      for (const auto& [name, file] : named->entries())
        if (!file.is_scalar() || !scripts.count(file.as_string()))
          throw RequestError(400, "scripts." + name + ": name one of the uploaded scripts");
  } catch (const RuleError& e) {
    throw RequestError(422, e.what());
  }
}

std::string VariantLibrary::upload(const std::string& yaml, const std::map<std::string, std::string>& scripts) {
  check_upload(yaml, scripts);
  const StoredUpload upload{UploadPrefix + random_hex(16), yaml, scripts};
  const fs::path dir = scratch_ / upload.id;
  // The upload's folder is its own (a fresh id), so it is written and compiled, hooks and all,
  // without the library's lock; only keeping the result takes it.
  std::shared_ptr<const Variant> variant;
  try {
    write_upload(dir, yaml, scripts);
    variant = compile(dir / "variant.yaml");
  } catch (...) {
    std::error_code ignored;
    fs::remove_all(dir, ignored);
    throw;
  }
  {
    const std::lock_guard lock(mutex_);
    compiled_.emplace(VariantChoice{upload.id, {}}.key(), variant);
  }
  store_.save(upload);
  return upload.id;
}

// Writes a draft to a fresh folder, answers use(folder) and removes the folder however that ends.
template <class Use>
auto VariantLibrary::with_draft(const std::string& yaml, const std::map<std::string, std::string>& scripts, Use use) {
  check_upload(yaml, scripts);
  const fs::path dir = scratch_ / ("draft-" + random_hex(16));
  struct Remover {
    fs::path dir;
    ~Remover() {
      std::error_code ignored;
      fs::remove_all(dir, ignored);
    }
  } remover{dir};
  write_upload(dir, yaml, scripts);
  return use(dir);
}

std::shared_ptr<const Variant> VariantLibrary::check(const std::string& yaml, const std::map<std::string, std::string>& scripts) {
  return with_draft(yaml, scripts, [this](const fs::path& dir) { return compile(dir / "variant.yaml"); });
}

ScriptResult VariantLibrary::test(const std::string& yaml, const std::map<std::string, std::string>& scripts, const std::string& script) {
  if (yaml.size() + script.size() > MaxUploadBytes)
    throw RequestError(413, "the variant and its test weigh over " + std::to_string(MaxUploadBytes) + " bytes");
  // The test may name no file but the draft: its `variant` is read as a path.
  try {
    const ConfigNode root = ConfigNode::parse_string(script, "test.yaml");
    if (const ConfigNode* variant = root.find("variant"))
      for (const ConfigNode* item : variant->items())
        if (!item->is_scalar() || item->as_string() != "variant.yaml") item->fail("a workshop test plays the variant being edited: variant: variant.yaml");
  } catch (const RuleError& e) {
    throw RequestError(422, e.what());
  }
  if (scripts.count("test.yaml")) throw RequestError(400, "script name \"test.yaml\": the test's own name");
  return with_draft(yaml, scripts, [&](const fs::path& dir) {
    compile(dir / "variant.yaml");  // a draft that does not load fails as it would in the editor
    write_file(dir / "test.yaml", script);
    try {
      return run_rule_script((dir / "test.yaml").string());
    } catch (const Error& e) {
      throw RequestError(422, plain_message(e.what()));
    }
  });
}

StoredUpload VariantLibrary::source(const std::string& name) {
  auto upload = is_upload(name) && is_plain_name(name) ? store_.load_upload(name) : std::nullopt;
  if (!upload) throw RequestError(404, "no uploaded variant named " + quote(name));
  return *upload;
}

// Messages name files as their users know them: an upload's "variant.yaml", not the scratch path.
std::string VariantLibrary::plain_message(const std::string& message) const {
  std::string text = message;
  const std::string prefix = scratch_.string() + "/";
  for (std::size_t at; (at = text.find(prefix)) != std::string::npos;) {
    std::size_t end = at + prefix.size();
    if (text.compare(end, 8, "overlays") != 0 && text.find('/', end) != std::string::npos)
      end = text.find('/', end) + 1;  // upload-ID/
    text.erase(at, end - at);
  }
  return text;
}

}  // namespace palace::server
