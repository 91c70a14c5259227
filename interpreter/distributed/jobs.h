// Work spread over threads and, in the MPI build, over every process of an `mpirun`: a numbered set
// of independent jobs whose results one process, the lead, receives in job order. Commands call this
// interface only; the build links one of its two implementations, team_single.cpp (one process) or
// team_mpi.cpp (PALACE_MPI=ON), so no command knows which.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <string>

#include "core/error.h"

namespace palace::distributed {

// A job that failed, or a process that could not set up its share: one line, naming the process
// when it was not the lead.
class JobError : public Error {
 public:
  using Error::Error;
};

struct JobSet {
  std::size_t count = 0;
  int threads = 1;  // in each process
  // Job i's result, on any process and thread. A palace::Error it throws fails the whole set.
  std::function<std::string(std::size_t)> work;
  // Lead only: results already known (a resumed match), delivered in their place and not run again.
  std::map<std::size_t, std::string> known;
  // Lead only: each new result as soon as it arrives, in any order, so none is lost to a crash.
  std::function<void(std::size_t, const std::string&)> arrived;
  // Lead only: every result in job order. False stops the set: no further job starts, and results
  // still to come are dropped.
  std::function<bool(std::size_t, const std::string&)> deliver;
};

// Builds the set on every process with `plan` (told whether it is the lead's), then runs it. A throw
// from `plan` on any process stops every process before a job starts: the lead rethrows its own error,
// or a JobError naming the process that failed; the others return. Returns true on the lead only.
bool run(const std::function<JobSet(bool lead)>& plan);

// The processes taking part: 1 without MPI or outside `mpirun`.
int processes();

}  // namespace palace::distributed
