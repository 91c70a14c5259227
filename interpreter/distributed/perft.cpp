#include "distributed/perft.h"

#include "distributed/jobs.h"
#include "movegen/movegen.h"

namespace palace::distributed {

namespace {

// Enough subtrees per thread that one big subtree does not leave the others idle for long.
constexpr std::size_t SubtreesPerThread = 8;

using Path = std::vector<Move>;

Position after(const Position& root, const Path& path) {
  Position pos = root;
  for (const Move m : path) pos.do_move(m);
  return pos;
}

// The move paths to every node `plies` below the root, in generation order.
std::vector<Path> frontier(const Position& root, int depth, bool divide, std::size_t wanted) {
  std::vector<Path> paths{{}};
  // A job counts at least its last ply itself, where perft is cheapest; --divide needs the root's moves.
  for (int ply = 0; (divide && ply < 1) || (ply < depth - 1 && paths.size() < wanted); ++ply) {
    std::vector<Path> deeper;
    for (const Path& path : paths) {
      Position pos = after(root, path);
      MoveList list;
      generate_legal(pos, list);
      for (const Move m : list) {
        deeper.push_back(path);
        deeper.back().push_back(m);
      }
    }
    paths = std::move(deeper);
  }
  return paths;
}

}  // namespace

std::optional<PerftCount> perft(const std::function<Position()>& load, int depth, int threads, bool divide) {
  std::optional<Position> root;
  std::vector<Path> paths;
  PerftCount count;
  std::vector<Move> root_moves;
  const bool lead = run([&](bool) {
    root.emplace(load());
    paths = frontier(*root, depth, divide, SubtreesPerThread * std::size_t(processes() * threads));
    JobSet jobs;
    jobs.count = paths.size();
    jobs.threads = threads;
    jobs.work = [&](std::size_t i) {
      Position pos = after(*root, paths[i]);
      return std::to_string(palace::perft(pos, depth - int(paths[i].size())));
    };
    jobs.deliver = [&](std::size_t i, const std::string& result) {
      const std::uint64_t n = std::stoull(result);
      count.total += n;
      if (divide) {
        const Move first = paths[i].front();
        if (root_moves.empty() || root_moves.back() != first) {
          root_moves.push_back(first);
          count.divide.emplace_back(root->move_text(first), 0);
        }
        count.divide.back().second += n;
      }
      return true;
    };
    return jobs;
  });
  if (!lead) return std::nullopt;
  return count;
}

}  // namespace palace::distributed
