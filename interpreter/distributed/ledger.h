// The lead's book of a job set: which job runs next, which results are in, and delivery in job
// order. Both implementations of jobs.h keep one; its methods are safe from any thread.
#pragma once

#include <algorithm>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "distributed/jobs.h"

namespace palace::distributed {

// A job's result, or the error it threw.
struct Outcome {
  bool failed = false;
  std::string text;  // the result, or the error's one line
};

// Runs job i, turning a palace::Error into a failed outcome.
Outcome attempt(const JobSet& jobs, std::size_t i);

class Ledger {
 public:
  // Delivers the known results that lead the order at once.
  explicit Ledger(const JobSet& jobs);

  // The next job to run, or nullopt when none is left or the set stopped.
  std::optional<std::size_t> take();
  // Records job i's outcome from `where` ("" for the lead, "process 2" for another) and delivers
  // every result now in order. The first failure stops the set.
  void record(std::size_t i, Outcome outcome, const std::string& where = "");
  // Stops the set: take() answers nullopt from now on.
  void stop();
  // After the last job: throws the JobError of the failure, if any.
  void finish() const;

 private:
  void deliver_ready();

  const JobSet& jobs_;
  std::mutex mutex_;
  std::size_t next_ = 0;       // the next job take() considers
  std::size_t delivered_ = 0;  // jobs before this one are delivered
  std::map<std::size_t, std::string> waiting_;  // results in, not yet delivered
  bool stopped_ = false;
  std::string failure_;
};

// `threads` threads running jobs from `take` until it answers nullopt, each outcome going to `give`.
// The destructor waits for them.
class Workers {
 public:
  template <typename Take, typename Give>
  Workers(const JobSet& jobs, Take take, Give give) {
    for (int t = 0; t < std::max(1, jobs.threads); ++t)
      threads_.emplace_back([&jobs, take, give] {
        while (const std::optional<std::size_t> i = take()) give(*i, attempt(jobs, *i));
      });
  }
  ~Workers() {
    for (auto& t : threads_) t.join();
  }
  Workers(const Workers&) = delete;
  Workers& operator=(const Workers&) = delete;

 private:
  std::vector<std::thread> threads_;
};

}  // namespace palace::distributed
