#include "distributed/ledger.h"

namespace palace::distributed {

Outcome attempt(const JobSet& jobs, std::size_t i) {
  try {
    return {false, jobs.work(i)};
  } catch (const Error& e) {
    return {true, e.what()};
  }
}

Ledger::Ledger(const JobSet& jobs) : jobs_(jobs) {
  std::lock_guard lock(mutex_);
  deliver_ready();
}

std::optional<std::size_t> Ledger::take() {
  std::lock_guard lock(mutex_);
  while (next_ < jobs_.count && jobs_.known.count(next_)) ++next_;
  if (stopped_ || next_ >= jobs_.count) return std::nullopt;
  return next_++;
}

void Ledger::record(std::size_t i, Outcome outcome, const std::string& where) {
  std::lock_guard lock(mutex_);
  if (stopped_) return;
  if (outcome.failed) {
    failure_ = where.empty() ? outcome.text : where + ": " + outcome.text;
    stopped_ = true;
    return;
  }
  if (jobs_.arrived) jobs_.arrived(i, outcome.text);
  waiting_.emplace(i, std::move(outcome.text));
  deliver_ready();
}

void Ledger::stop() {
  std::lock_guard lock(mutex_);
  stopped_ = true;
}

void Ledger::finish() const {
  if (!failure_.empty()) throw JobError(failure_);
}

// Called with the mutex held, so that results reach the caller one at a time and in order.
void Ledger::deliver_ready() {
  while (!stopped_ && delivered_ < jobs_.count) {
    const auto known = jobs_.known.find(delivered_);
    const auto in = waiting_.find(delivered_);
    if (known == jobs_.known.end() && in == waiting_.end()) return;
    const std::string& result = known != jobs_.known.end() ? known->second : in->second;
    if (jobs_.deliver && !jobs_.deliver(delivered_, result)) stopped_ = true;
    if (in != waiting_.end()) waiting_.erase(in);
    ++delivered_;
  }
}

}  // namespace palace::distributed
