// The variants `palace serve` plays: the shipped YAML files of one folder, named by file stem, and
// variants users upload (YAML that may import shipped variants by file name, plus the Lua scripts
// it names, run under the hooks' sandbox). Each
// is compiled once per formation choice and shared read-only by every game played on it.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "compiler/variant.h"
#include "core/error.h"
#include "game/rule_script.h"
#include "server/game_store.h"

namespace palace::server {

// A request the server turns down with a 4xx status and this one-line message.
class RequestError : public Error {
 public:
  RequestError(int status, const std::string& message) : Error(message), status_(status) {}
  int status() const { return status_; }

 private:
  int status_;
};

// The biggest upload: a variant file and its scripts are a few kilobytes (rules/README.md caps a
// rule file at 1 MiB).
constexpr std::size_t MaxUploadBytes = std::size_t(1) << 20;

// Which variant a game is played on: a shipped one by name or an upload by id, and the formation
// each side chose where the variant has formations.
struct VariantChoice {
  std::string name;
  std::map<std::string, std::string> formations;  // side name -> formation name

  std::string key() const;  // JSON text, as the store keeps it
  bool is_upload() const;   // a variant a user uploaded, hooks and all
  static VariantChoice from_key(const std::string& key);
};

// The most scripts an upload may bring: a variant names a few (the shipped ones, at most three).
// Each was a file in the scratch folder, so the byte cap alone let 60,000 empty ones in (issue 53);
// now only those the variant names are written and kept.
constexpr std::size_t MaxUploadScripts = 32;

// What the scratch folder (uploads written out for the loader) may hold at most, by default. Each
// file counts at least one block of ScratchBlockBytes, as the disk spends that and an inode on it.
constexpr std::size_t DefaultScratchBytes = std::size_t(256) << 20;
constexpr std::size_t ScratchBlockBytes = 4096;

class VariantLibrary {
 public:
  // Removes the scratch folders of servers that are gone (a crash leaves its folder behind), then
  // makes this one's; it holds at most scratch_bytes of uploads.
  VariantLibrary(std::filesystem::path shipped_dir, GameStore& store, std::size_t scratch_bytes = DefaultScratchBytes);
  ~VariantLibrary();  // removes the scratch folder uploads were written to
  VariantLibrary(const VariantLibrary&) = delete;
  VariantLibrary& operator=(const VariantLibrary&) = delete;

  std::vector<std::string> shipped() const;  // sorted names
  // The formations each side may pick, by side name: sides whose set-up has no formation are left out.
  std::map<std::string, std::vector<std::string>> formations(const std::string& name);
  // Compiled on first use. Throws RequestError for an unknown name or formation, and the
  // loader's own error, made to name files as the user knows them, for a variant that fails.
  std::shared_ptr<const Variant> get(const VariantChoice& choice);
  // Checks, compiles and keeps an uploaded variant, with the rule test the workshop saves beside it;
  // returns its name, "upload-" and an id.
  std::string upload(const std::string& yaml, const std::map<std::string, std::string>& scripts, const std::string& test = "");
  // The workshop's drafts (web/README.md): checked and compiled as an upload is, hooks and all, in a
  // folder of their own that is gone once answered (the variant holds its scripts' text, so its
  // start position's runtime hooks still run); nothing is kept.
  std::shared_ptr<const Variant> check(const std::string& yaml, const std::map<std::string, std::string>& scripts);
  // Runs a rule-test script (tests/rules/README.md) whose `variant` is the draft, "variant.yaml".
  ScriptResult test(const std::string& yaml, const std::map<std::string, std::string>& scripts, const std::string& script);
  // An upload's YAML, scripts and rule test as they were sent; 404 for an unknown id.
  StoredUpload source(const std::string& name);
  // Forgets an upload the store no longer holds (it expired): its compiled variants, and its scratch
  // folder unless a game still plays it (make_room removes that later).
  void forget(const std::string& id);
  std::string plain_message(const std::string& message) const;

 private:
  std::filesystem::path file_of(const std::string& name);  // the YAML file, an upload's written out first
  static std::map<std::string, std::string> named_only(const std::string& yaml, const std::map<std::string, std::string>& scripts);
  // Refuses (RequestError) an upload too big, with too many scripts, or naming other files than its
  // own scripts and shipped variants.
  void check_upload(const std::string& yaml, const std::map<std::string, std::string>& scripts) const;
  // The files an upload is written out as, by name: its scripts, variant.yaml, and a one-line file
  // for each shipped variant it imports.
  std::map<std::string, std::string> files_of(const std::string& yaml, const std::map<std::string, std::string>& scripts) const;
  void write_files(const std::filesystem::path& dir, const std::string& yaml, const std::map<std::string, std::string>& scripts);
  // Writes an upload's files into scratch_/id, making room first (mutex_ held).
  void write_upload(const std::string& id, const std::string& yaml, const std::map<std::string, std::string>& scripts);
  // Removes the folders of uploads no game holds until `bytes` more fit under the cap, or throws
  // RequestError 507 (mutex_ held).
  void make_room(std::size_t bytes);
  bool in_play(const std::string& id) const;  // being compiled, or a variant of it held by a game (mutex_ held)
  void drop_compiled(const std::string& id);   // every formation choice of it (mutex_ held)
  void remove_folder(const std::string& id);   // and its compiled variants (mutex_ held)
  std::shared_ptr<const Variant> compile(const std::filesystem::path& file);
  static std::shared_ptr<const Variant> probed(std::shared_ptr<const Variant> variant);
  // The variant with the formations chosen by side name; RequestError 400 for a name it lacks.
  std::shared_ptr<const Variant> with_formations(const Variant& variant, const std::map<std::string, std::string>& formations) const;
  template <class Use>
  auto with_draft(const std::string& yaml, const std::map<std::string, std::string>& scripts, Use use);

  std::filesystem::path shipped_dir_;
  std::filesystem::path scratch_;
  GameStore& store_;
  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<const Variant>> compiled_;  // by VariantChoice::key()
  std::size_t scratch_cap_;
  std::map<std::string, std::size_t> written_;  // upload id -> bytes its scratch folder holds
  std::map<std::string, int> compiling_;        // variant name -> compilations running from its folder
};

}  // namespace palace::server
