// perft and match spread over threads (-j) and, in the MPI build, over `mpirun` processes: the same
// counts, the same lines in the same order and the same PGN as one thread of one process.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "test_support.h"

namespace palace::test {
namespace {

// Counting decides janggi at the move limit, so the games end in wins both ways, not all in draws.
constexpr const char* MatchArgs =
    "match variants/janggi.yaml --player palace,depth=2 --player palace,depth=1 --max-plies 16 --rounds 3 "
    "--random-plies 4 --seed 7";

bool mpi_built() { return std::string(PALACE_MPIEXEC).size() > 0; }

// `palace ARGS` under `mpirun -np PROCESSES`.
PalaceRun run_mpi(int processes, const std::string& args) {
  // Open MPI refuses root unless told twice; the machine this runs on has fewer cores than processes.
  return run_shell("cd " + shell_quoted(PALACE_SOURCE_DIR) +
                   " && OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 " + shell_quoted(PALACE_MPIEXEC) +
                   " --oversubscribe -np " + std::to_string(processes) + " " + shell_quoted(PALACE_BINARY) + " " + args);
}

std::string file_text(const std::string& path) {
  std::string text;
  for (const auto& line : file_lines(path)) text += line + "\n";
  return text;
}

TEST(Threads, PerftCountsAreTheSameOnAnyNumberOfThreads) {
  EXPECT_EQ(run_palace("perft variants/chess.yaml --depth 4 -j 3").out, "197281\n");
  EXPECT_EQ(run_palace("perft variants/janggi.yaml --depth 3 -j 2").out, run_palace("perft variants/janggi.yaml --depth 3").out);
  const auto one = run_palace("perft variants/xiangqi.yaml --depth 3 --divide");
  const auto three = run_palace("perft variants/xiangqi.yaml --depth 3 --divide -j 3");
  ASSERT_EQ(one.lines.size(), 45u) << one.out;
  EXPECT_EQ(one.out, three.out);
  EXPECT_EQ(run_palace("perft variants/chess.yaml --depth 0 -j 2").out, "1\n");
}

TEST(Threads, MatchLinesAndPgnAreInGameOrderOnAnyNumberOfThreads) {
  const std::string one_pgn = temp_path("one.pgn"), three_pgn = temp_path("three.pgn");
  const auto one = run_palace(std::string(MatchArgs) + " -j 1 --pgn " + shell_quoted(one_pgn) + " 2>&1");
  const auto three = run_palace(std::string(MatchArgs) + " -j 3 --pgn " + shell_quoted(three_pgn) + " 2>&1");
  ASSERT_EQ(one.status, 0) << one.out;
  ASSERT_EQ(one.lines.size(), 7u) << one.out;
  for (int i = 0; i < 6; ++i) EXPECT_EQ(one.lines[std::size_t(i)].rfind("game " + std::to_string(i + 1) + ": ", 0), 0u) << one.out;
  EXPECT_EQ(one.lines[6].rfind("palace vs palace-2: 6 games, ", 0), 0u) << one.out;
  EXPECT_EQ(three.out, one.out);
  EXPECT_EQ(file_text(three_pgn), file_text(one_pgn));
}

TEST(Threads, AnEngineThatHangsLosesEachGameOnTimeAndTheMatchEnds) {
  const std::string path = temp_path("hang.sh");
  std::ofstream(path) << "#!/bin/sh\nwhile read line; do case \"$line\" in\n"
                      << "  uci) echo uciok;;\n  isready) echo readyok;;\nesac; done\n";
  chmod(path.c_str(), 0755);
  const auto run = run_palace("match variants/chess.yaml --movetime 50 --engine " + shell_quoted(path) + " -j 2 2>&1");
  ASSERT_EQ(run.status, 0) << run.out;
  ASSERT_EQ(run.lines.size(), 3u) << run.out;
  const std::string name = std::filesystem::path(path).filename().string();
  for (int i = 0; i < 2; ++i)
    EXPECT_NE(run.lines[std::size_t(i)].find("(" + name + " lost on time (no move after "), std::string::npos) << run.out;
  EXPECT_EQ(run.lines[2].rfind(name + " vs palace: 2 games, +0 =0 -2", 0), 0u) << run.out;
}

TEST(Mpi, PerftUnderMpirunCountsWhatOneProcessCounts) {
  if (!mpi_built()) GTEST_SKIP() << "built without PALACE_MPI";
  EXPECT_EQ(run_mpi(3, "perft variants/chess.yaml --depth 4").out, "197281\n");
  // Fewer root moves than threads in all: the tree is cut a ply deeper.
  EXPECT_EQ(run_mpi(3, "perft variants/chess.yaml --depth 3 -j 2 --fen '4k3/8/8/8/8/8/8/4K3 w - - 0 1'").out,
            run_palace("perft variants/chess.yaml --depth 3 --fen '4k3/8/8/8/8/8/8/4K3 w - - 0 1'").out);
  EXPECT_EQ(run_mpi(3, "perft variants/janggi.yaml --depth 3 --divide").out,
            run_palace("perft variants/janggi.yaml --depth 3 --divide").out);
}

TEST(Mpi, MatchUnderMpirunPrintsWhatOneProcessPrints) {
  if (!mpi_built()) GTEST_SKIP() << "built without PALACE_MPI";
  const std::string one_pgn = temp_path("one.pgn"), spread_pgn = temp_path("spread.pgn");
  const auto one = run_palace(std::string(MatchArgs) + " --pgn " + shell_quoted(one_pgn) + " 2>&1");
  const auto spread = run_mpi(3, std::string(MatchArgs) + " --pgn " + shell_quoted(spread_pgn) + " 2>&1");
  ASSERT_EQ(one.status, 0) << one.out;
  ASSERT_EQ(spread.status, 0) << spread.out;
  EXPECT_EQ(spread.lines.back(), one.lines.back());  // the summary
  EXPECT_EQ(spread.out, one.out);
  EXPECT_EQ(file_text(spread_pgn), file_text(one_pgn));
}

// The designer's commands ride on the match's games: the same summary from any number of processes.
TEST(Mpi, BalanceAndValuesUnderMpirunPrintWhatOneProcessPrints) {
  if (!mpi_built()) GTEST_SKIP() << "built without PALACE_MPI";
  for (const std::string args : {"balance variants/janggi.yaml --formations all --games 1 --nodes 100 --max-plies 16",
                                 "values variants/chess.yaml --games 4 --nodes 100 --max-plies 40 --removal 1 --resamples 5"}) {
    const auto one = run_palace(args + " 2>&1");
    const auto spread = run_mpi(3, args + " 2>&1");
    ASSERT_EQ(one.status, 0) << one.out;
    EXPECT_EQ(spread.status, 0) << spread.out;
    EXPECT_EQ(spread.out, one.out);
  }
}

TEST(Mpi, ASetUpErrorIsOneLineFromTheLead) {
  if (!mpi_built()) GTEST_SKIP() << "built without PALACE_MPI";
  const auto run = run_mpi(3, "perft variants/chess.yaml --depth 2 --fen 'x' 2>/dev/null");
  EXPECT_EQ(run.status, 2);
  const auto mine = run_mpi(3, "perft variants/chess.yaml --depth 2 --fen 'x' 2>&1 >/dev/null");
  ASSERT_FALSE(mine.lines.empty());
  EXPECT_EQ(mine.lines[0] + "\n", run_palace("perft variants/chess.yaml --depth 2 --fen 'x' 2>&1").out);
  EXPECT_EQ(std::count_if(mine.lines.begin(), mine.lines.end(), [](const std::string& l) { return l.rfind("error:", 0) == 0; }), 1)
      << mine.out;
}

// An engine that kills the palace process running its game, on the second process, at its third
// start (the first is the set-up's check); elsewhere, and from then on, it is fairy-stockfish.
std::string killing_engine(const std::string& counter) {
  const std::string path = temp_path("killer.sh");
  std::ofstream out(path);
  out << "#!/bin/sh\nif [ \"$OMPI_COMM_WORLD_RANK\" = 1 ]; then\n"
      << "  n=$(($(cat " << counter << " 2>/dev/null || echo 0) + 1)); echo $n > " << counter << "\n"
      << "  if [ $n = 3 ]; then kill -9 $PPID; exit 1; fi\nfi\nexec /usr/games/fairy-stockfish\n";
  out.close();
  chmod(path.c_str(), 0755);
  return path;
}

TEST(Mpi, AProcessThatDiesIsReportedAndTheMatchResumesFromItsPgn) {
  if (!mpi_built()) GTEST_SKIP() << "built without PALACE_MPI";
  if (!std::filesystem::exists("/usr/games/fairy-stockfish")) GTEST_SKIP() << "fairy-stockfish is not installed";
  const std::string counter = temp_path("starts"), pgn = temp_path("died.pgn"), whole = temp_path("whole.pgn");
  std::remove(counter.c_str());
  const std::string args = "match variants/janggi.yaml --engine " + killing_engine(counter) +
                           " --depth 1 --max-plies 16 --rounds 5 --random-plies 4 --seed 7";
  const auto died = run_mpi(3, args + " --pgn " + shell_quoted(pgn) + " 2>&1");
  EXPECT_NE(died.status, 0);
  EXPECT_NE(died.out.find("process rank 1"), std::string::npos) << died.out;
  const auto kept = file_lines(pgn);
  EXPECT_GE(std::count_if(kept.begin(), kept.end(), [](const std::string& l) { return l.rfind("[Round ", 0) == 0; }), 1)
      << died.out;

  const auto resumed = run_mpi(3, args + " --pgn " + shell_quoted(pgn) + " --resume 2>&1");
  const auto reference = run_palace(args + " --pgn " + shell_quoted(whole) + " 2>&1");
  ASSERT_EQ(reference.status, 0) << reference.out;
  EXPECT_EQ(resumed.status, 0) << resumed.out;
  EXPECT_EQ(resumed.out, reference.out);
  EXPECT_EQ(file_text(pgn), file_text(whole));
}

}  // namespace
}  // namespace palace::test
