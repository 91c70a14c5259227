#include "server/variant_library.h"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
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

// Scratch folders are named palace-serve-PID-HEX: one whose process is gone was left by a crash.
void remove_leftover_scratch(const fs::path& temp) {
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(temp, error)) {
    const std::string name = entry.path().filename().string();
    const std::string prefix = "palace-serve-";
    if (name.rfind(prefix, 0) != 0 || !entry.is_directory(error)) continue;
    const std::size_t dash = name.find('-', prefix.size());
    const std::string pid = name.substr(prefix.size(), dash == std::string::npos ? 0 : dash - prefix.size());
    if (pid.empty() || pid.size() > 9 || !std::all_of(pid.begin(), pid.end(), [](char c) { return std::isdigit((unsigned char)c); }))
      continue;
    if (::kill(pid_t(std::stol(pid)), 0) == 0 || errno != ESRCH) continue;  // alive, or not ours to know
    std::error_code ignored;
    fs::remove_all(entry.path(), ignored);
  }
}

}  // namespace

bool VariantChoice::is_upload() const { return server::is_upload(name); }

std::string VariantChoice::key() const { return json{{"name", name}, {"formations", formations}}.dump(); }

VariantChoice VariantChoice::from_key(const std::string& key) {
  const json j = json::parse(key);
  return {j.at("name").get<std::string>(), j.at("formations").get<std::map<std::string, std::string>>()};
}

VariantLibrary::VariantLibrary(fs::path shipped_dir, GameStore& store, std::size_t scratch_bytes)
    : shipped_dir_(std::move(shipped_dir)),
      scratch_(fs::temp_directory_path() / ("palace-serve-" + std::to_string(getpid()) + "-" + random_hex())),
      store_(store),
      scratch_cap_(scratch_bytes) {
  remove_leftover_scratch(fs::temp_directory_path());
  fs::create_directories(scratch_);
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
    if (written_.count(name) != 0) return dir / "variant.yaml";
    std::optional<StoredUpload> upload;
    try {
      upload = store_.load_upload(name);
    } catch (const StoreError& e) {
      throw RequestError(422, "the stored variant " + name + " cannot be read: " + e.what());
    }
    if (!upload) throw RequestError(404, "no variant named " + quote(name));
    // The store is a file anyone with the account may edit: a row is checked again as an upload.
    check_upload(upload->yaml, upload->scripts);
    write_upload(name, upload->yaml, named_only(upload->yaml, upload->scripts));
    return dir / "variant.yaml";
  }
  const std::vector<std::string> names = shipped();
  if (std::find(names.begin(), names.end(), name) == names.end())
    throw RequestError(404, "no variant named " + quote(name));
  return shipped_dir_ / (name + ".yaml");
}

// A shipped variant an upload imports by name is a one-line file beside it importing the real one,
// so that the real one's own imports still resolve from where it lives.
std::map<std::string, std::string> VariantLibrary::files_of(const std::string& yaml, const std::map<std::string, std::string>& scripts) const {
  std::map<std::string, std::string> files = scripts;
  const ConfigNode root = ConfigNode::parse_string(yaml, "variant.yaml");
  if (const ConfigNode* imports = root.find("import"))
    for (const ConfigNode* item : imports->items())
      files[item->as_string()] = json{{"import", {fs::absolute(shipped_dir_ / item->as_string()).string()}}}.dump();
  files["variant.yaml"] = yaml;
  return files;
}

void VariantLibrary::write_files(const fs::path& dir, const std::string& yaml, const std::map<std::string, std::string>& scripts) {
  fs::create_directories(dir);
  for (const auto& [file, text] : files_of(yaml, scripts)) write_file(dir / file, text);
}

void VariantLibrary::write_upload(const std::string& id, const std::string& yaml, const std::map<std::string, std::string>& scripts) {
  std::size_t bytes = 0;
  for (const auto& [file, text] : files_of(yaml, scripts)) bytes += std::max<std::size_t>(1, (text.size() + ScratchBlockBytes - 1) / ScratchBlockBytes) * ScratchBlockBytes;
  make_room(bytes);
  written_[id] = bytes;
  try {
    write_files(scratch_ / id, yaml, scripts);
  } catch (...) {
    std::error_code ignored;
    fs::remove_all(scratch_ / id, ignored);
    written_.erase(id);
    throw;
  }
}

// An upload a game still plays keeps its folder, and so its compiled variants (remove_folder drops
// them); its interpreters need no file, as the loader read the scripts.
bool VariantLibrary::in_play(const std::string& id) const {
  return compiling_.count(id) != 0 || std::any_of(compiled_.begin(), compiled_.end(), [&](const auto& entry) {
           return VariantChoice::from_key(entry.first).name == id && entry.second.use_count() > 1;
         });
}

void VariantLibrary::drop_compiled(const std::string& id) {
  for (auto c = compiled_.begin(); c != compiled_.end();)
    c = VariantChoice::from_key(c->first).name == id ? compiled_.erase(c) : std::next(c);
}

void VariantLibrary::remove_folder(const std::string& id) {
  drop_compiled(id);
  std::error_code ignored;
  fs::remove_all(scratch_ / id, ignored);
  written_.erase(id);
}

void VariantLibrary::make_room(std::size_t bytes) {
  std::size_t used = 0;
  for (const auto& [id, size] : written_) used += size;
  for (auto it = written_.begin(); it != written_.end() && used + bytes > scratch_cap_;) {
    const auto [id, size] = *it++;  // copied: removing the folder erases its entry
    if (in_play(id)) continue;
    remove_folder(id);
    used -= size;
  }
  if (used + bytes > scratch_cap_)
    throw RequestError(507, "the server's scratch folder is full (" + std::to_string(scratch_cap_ >> 20) +
                                " MiB of uploads in play; palace serve --max-scratch-mb)");
}

std::map<std::string, std::vector<std::string>> VariantLibrary::formations(const std::string& name) {
  const RuleSet& rules = get(VariantChoice{name, {}})->rules();
  std::map<std::string, std::vector<std::string>> choices;
  for (int side = 0; side < SideCount; ++side)
    if (!rules.formation_squares[side].empty())
      for (const auto& [formation, kinds] : rules.formations) choices[rules.sides[side].name].push_back(formation);
  return choices;
}

std::shared_ptr<const Variant> VariantLibrary::get(const VariantChoice& choice) {
  // A formation is switched on the compiled variant: nothing a user typed reaches a file.
  const std::shared_ptr<const Variant> file_formations =
      choice.formations.empty() ? nullptr : get(VariantChoice{choice.name, {}});
  std::unique_lock lock(mutex_);
  if (const auto found = compiled_.find(choice.key()); found != compiled_.end()) return found->second;
  const fs::path file = file_formations ? fs::path() : file_of(choice.name);
  // Compiling runs the variant's hooks: other requests need not wait for that. Two requests may
  // compile the same choice at once; the first kept is the one every game shares.
  // The folder being compiled from stays while it is (make_room).
  ++compiling_[choice.name];
  lock.unlock();
  std::shared_ptr<const Variant> variant;
  try {
    variant = file_formations ? with_formations(*file_formations, choice.formations) : compile(file);
  } catch (...) {
    lock.lock();
    if (--compiling_[choice.name] == 0) compiling_.erase(choice.name);
    throw;
  }
  lock.lock();
  if (--compiling_[choice.name] == 0) compiling_.erase(choice.name);
  return compiled_.emplace(choice.key(), variant).first->second;
}

std::shared_ptr<const Variant> VariantLibrary::with_formations(const Variant& variant,
                                                               const std::map<std::string, std::string>& formations) const {
  try {
    return probed(std::make_shared<const Variant>(variant.rules().with_formations(formations)));
  } catch (const Error& e) {
    throw RequestError(400, plain_message(e.what()));
  }
}

std::shared_ptr<const Variant> VariantLibrary::compile(const fs::path& file) {
  try {
    return probed(load_variant(file.string()));
  } catch (const Error& e) {
    throw RequestError(422, plain_message(e.what()));
  }
}

// Runs every hook of the set-up once, so a bad script fails here, not mid-game.
std::shared_ptr<const Variant> VariantLibrary::probed(std::shared_ptr<const Variant> variant) {
  Game probe(variant);
  return variant;
}

std::string VariantLibrary::upload(const std::string& yaml, const std::map<std::string, std::string>& sent, const std::string& test) {
  check_upload(yaml, sent);
  if (test.size() > MaxUploadBytes) throw RequestError(413, "the rule test weighs over " + std::to_string(MaxUploadBytes) + " bytes");
  const std::map<std::string, std::string> scripts = named_only(yaml, sent);
  const StoredUpload upload{UploadPrefix + random_hex(), yaml, scripts, test};
  // The upload's folder is its own (a fresh id), so it is compiled, hooks and all, without the
  // library's lock; only writing it (room is made in the scratch folder) and keeping it take it.
  {
    const std::lock_guard lock(mutex_);
    write_upload(upload.id, yaml, scripts);
    compiling_[upload.id] = 1;  // a fresh id: no one else compiles it
  }
  std::shared_ptr<const Variant> variant;
  try {
    variant = compile(scratch_ / upload.id / "variant.yaml");
  } catch (...) {
    const std::lock_guard lock(mutex_);
    std::error_code ignored;
    fs::remove_all(scratch_ / upload.id, ignored);
    written_.erase(upload.id);
    compiling_.erase(upload.id);
    throw;
  }
  {
    const std::lock_guard lock(mutex_);
    compiling_.erase(upload.id);
    compiled_.emplace(VariantChoice{upload.id, {}}.key(), variant);
  }
  store_.save(upload);
  return upload.id;
}

// What an upload may hold, checked before any of it is written: plain script names, a size cap, and
// no file of the server's machine read but the shipped variants it imports by name and the scripts
// it brought. An upload read back from the store is checked again the same way.
void VariantLibrary::check_upload(const std::string& yaml, const std::map<std::string, std::string>& scripts) const {
  if (scripts.size() > MaxUploadScripts)
    throw RequestError(400, "an upload may bring at most " + std::to_string(MaxUploadScripts) + " scripts, not " + std::to_string(scripts.size()));
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
    // Refused at the line that names the file, for the workshop to mark there.
    if (const ConfigNode* imports = root.find("import"))
      for (const ConfigNode* item : imports->items())
        if (!item->is_scalar() || item->as_string().size() < 6 || item->as_string().substr(item->as_string().size() - 5) != ".yaml" ||
            std::find(names.begin(), names.end(), item->as_string().substr(0, item->as_string().size() - 5)) == names.end() ||
            scripts.count(item->as_string()))
          throw RequestError(400, RuleError(item->mark(), item->path(), "an uploaded variant may import only shipped variants, like janggi.yaml").what());
    if (const ConfigNode* named = root.find("scripts"); named && named->is_map())
      for (const auto& [name, file] : named->entries())
        if (!file.is_scalar() || !scripts.count(file.as_string()))
          throw RequestError(400, RuleError(file.key_mark(), "scripts." + name, "name one of the uploaded scripts").what());
  } catch (const RuleError& e) {
    throw RequestError(422, e.what());
  }
}

// The scripts the variant names under `scripts:`, the only ones the loader reads: the others (the
// workshop sends every tab open in its editor) would only take room, so they are neither written
// nor kept. A YAML text that does not parse keeps them all, for check_upload to refuse it.
std::map<std::string, std::string> VariantLibrary::named_only(const std::string& yaml, const std::map<std::string, std::string>& scripts) {
  std::map<std::string, std::string> named;
  try {
    const ConfigNode root = ConfigNode::parse_string(yaml, "variant.yaml");
    if (const ConfigNode* list = root.find("scripts"); list && list->is_map())
      for (const auto& [name, file] : list->entries())
        if (file.is_scalar())
          if (const auto found = scripts.find(file.as_string()); found != scripts.end()) named.insert(*found);
  } catch (const RuleError&) {
    return scripts;
  }
  return named;
}

// Writes a draft to a fresh folder, answers use(folder) and removes the folder however that ends.
template <class Use>
auto VariantLibrary::with_draft(const std::string& yaml, const std::map<std::string, std::string>& scripts, Use use) {
  check_upload(yaml, scripts);
  const fs::path dir = scratch_ / ("draft-" + random_hex());
  struct Remover {
    fs::path dir;
    ~Remover() {
      std::error_code ignored;
      fs::remove_all(dir, ignored);
    }
  } remover{dir};
  write_files(dir, yaml, named_only(yaml, scripts));  // gone when the draft is answered: not counted in the scratch cap
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
    // Each entry would load and compile the draft again: one is all it has.
    if (const ConfigNode* variant = root.find("variant")) {
      const std::vector<const ConfigNode*> items = variant->items();
      for (std::size_t i = 0; i < items.size(); ++i)
        if (i > 0 || !items[i]->is_scalar() || items[i]->as_string() != "variant.yaml")
          items[i]->fail("a workshop test plays the variant being edited, once: variant: variant.yaml");
    }
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

void VariantLibrary::forget(const std::string& id) {
  const std::lock_guard lock(mutex_);
  if (in_play(id)) drop_compiled(id);
  else remove_folder(id);
}

// Messages name files as their users know them: an upload's "variant.yaml", not the scratch path.
std::string VariantLibrary::plain_message(const std::string& message) const {
  std::string text = message;
  const std::string prefix = scratch_.string() + "/";
  for (std::size_t at; (at = text.find(prefix)) != std::string::npos;) {
    std::size_t end = at + prefix.size();
    if (text.find('/', end) != std::string::npos)
      end = text.find('/', end) + 1;  // upload-ID/
    text.erase(at, end - at);
  }
  return text;
}

}  // namespace palace::server
