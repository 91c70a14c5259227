#include "compiler/routes.h"

namespace palace {

std::vector<Route> routes_between(const Variant& v, Side side, Kind kind, Point from, Point to) {
  std::vector<Route> out;
  for (const MovePart& part : v.rules().pieces[kind].parts)
    for_each_route(v, side, part, from, [&](const RouteStep& step) {
      if (step.to == to) out.push_back({&part, {step.between.begin(), step.between.end()}});
    });
  return out;
}

}  // namespace palace
