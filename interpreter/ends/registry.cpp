#include "ends/registry.h"

#include <algorithm>

#include "loader/rule_set.h"

namespace palace {

namespace {

template <class... R>
constexpr auto keys_of(std::tuple<R...>*) {
  std::array<KeySpec, (R::keys.size() + ... + 0)> all{};
  std::size_t n = 0;
  ((std::copy(R::keys.begin(), R::keys.end(), all.begin() + n), n += R::keys.size()), ...);
  return all;
}

constexpr auto end_keys = keys_of(static_cast<EndRuleList*>(nullptr));

}  // namespace

namespace keys {
const MapSpec ends{"ends", "Every way the game ends besides checkmate.", end_keys};
}

SideResult read_side_result(const ConfigNode& node) {
  return word<SideResult>(node, {{"loss", SideResult::Loss}, {"draw", SideResult::Draw}, {"win", SideResult::Win}});
}

void EndRules::read(const ConfigNode& ends, const RuleSet& rules) {
  ends.expect_keys(keys::ends);
  std::apply(
      [&](auto&... rule) {
        const auto read_one = [&](auto& r) {
          if constexpr (requires { r.read(ends, rules); }) r.read(ends, rules);
        };
        (read_one(rule), ...);
      },
      modules);
}

}  // namespace palace
