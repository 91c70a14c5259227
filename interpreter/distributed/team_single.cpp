// jobs.h in one process: the lead is the only process, and its threads run every job.
#include "distributed/ledger.h"

namespace palace::distributed {

bool run(const std::function<JobSet(bool lead)>& plan) {
  const JobSet jobs = plan(true);
  Ledger ledger(jobs);
  {
    Workers workers(jobs, [&] { return ledger.take(); }, [&](std::size_t i, Outcome o) { ledger.record(i, std::move(o)); });
  }
  ledger.finish();
  return true;
}

int processes() { return 1; }

}  // namespace palace::distributed
