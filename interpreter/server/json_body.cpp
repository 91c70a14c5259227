#include "server/json_body.h"

#include <set>
#include <string>
#include <vector>

#include "server/variant_library.h"

namespace palace::server {

namespace {

using nlohmann::json;

// A first pass over the text that builds nothing: it stops at the first limit passed, saying why.
class Limits : public nlohmann::json_sax<json> {
 public:
  std::string refusal;

  bool null() override { return value(); }
  bool boolean(bool) override { return value(); }
  bool number_integer(number_integer_t) override { return value(); }
  bool number_unsigned(number_unsigned_t) override { return value(); }
  bool number_float(number_float_t, const string_t&) override { return value(); }
  bool string(string_t&) override { return value(); }
  bool binary(binary_t&) override { return value(); }
  bool start_object(std::size_t) override { return open(); }
  bool end_object() override { return close(); }
  bool start_array(std::size_t) override { return open(); }
  bool end_array() override { return close(); }
  bool key(string_t& key) override {
    if (open_.back().insert(key).second) return true;
    return refuse("key " + json(key).dump(-1, ' ', false, json::error_handler_t::replace) + " appears twice in one JSON object");
  }
  bool parse_error(std::size_t byte, const std::string&, const nlohmann::detail::exception&) override {
    return refuse("malformed JSON at byte " + std::to_string(byte));
  }

 private:
  std::vector<std::set<std::string>> open_;  // the keys of each object or array open, innermost last
  std::size_t values_ = 0;

  bool refuse(std::string why) {
    refusal = std::move(why);
    return false;
  }
  bool value() {
    if (++values_ <= MaxJsonValues) return true;
    return refuse("a JSON body may hold at most " + std::to_string(MaxJsonValues) + " values");
  }
  bool open() {
    if (!value()) return false;
    if (open_.size() >= MaxJsonDepth)
      return refuse("a JSON body may nest at most " + std::to_string(MaxJsonDepth) + " objects and arrays deep");
    open_.emplace_back();
    return true;
  }
  bool close() {
    open_.pop_back();
    return true;
  }
};

}  // namespace

json parse_json_body(std::string_view text) {
  if (text.empty()) return json::object();
  Limits limits;
  if (!json::sax_parse(text, &limits)) throw RequestError(400, limits.refusal.empty() ? "malformed JSON" : limits.refusal);
  json body = json::parse(text);
  if (!body.is_object()) throw RequestError(400, "expected a JSON object");
  return body;
}

}  // namespace palace::server
