// jobs.h over MPI: every process of `mpirun` runs jobs in its threads. Process 0, the lead, hands out
// job numbers one at a time as the others ask (so a slow game holds up no one), runs jobs of its own
// and gathers every result. Only each process's main thread calls MPI.
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <deque>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "distributed/ledger.h"

namespace palace::distributed {

namespace {

enum Tag : int { Ask = 1, Result = 2, Reply = 3, SetupFailed = 4 };
constexpr int Lead = 0;

// MPI from the first use to the end of the program.
struct Mpi {
  int rank = 0, size = 1;
  static const Mpi& get() {
    static const Mpi mpi;
    return mpi;
  }

 private:
  Mpi() {
    int provided = 0;
    MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
  }
  ~Mpi() { MPI_Finalize(); }
};

// MPI's own blocking calls spin a core; the machine's cores belong to the workers, so waits poll
// gently instead.
void nap() { std::this_thread::sleep_for(std::chrono::microseconds(200)); }

void wait(MPI_Request& request) {
  for (int done = 0; MPI_Test(&request, &done, MPI_STATUS_IGNORE), !done;) nap();
}

void send(const std::string& bytes, int to, Tag tag) {
  MPI_Request request;
  MPI_Isend(bytes.data(), int(bytes.size()), MPI_BYTE, to, tag, MPI_COMM_WORLD, &request);
  wait(request);
}

// The next message for this process with `tag` (any tag: -1), and who sent it.
std::string receive(int& from, int tag) {
  MPI_Status status;
  for (int ready = 0; MPI_Iprobe(MPI_ANY_SOURCE, tag < 0 ? MPI_ANY_TAG : tag, MPI_COMM_WORLD, &ready, &status), !ready;)
    nap();
  int bytes = 0;
  MPI_Get_count(&status, MPI_BYTE, &bytes);
  std::string message(std::size_t(bytes), '\0');
  MPI_Recv(message.data(), bytes, MPI_BYTE, status.MPI_SOURCE, status.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  from = status.MPI_SOURCE;
  return message;
}

// A job number on the wire; -1 says there is none left.
std::string encode_job(std::int64_t job) { return std::string(reinterpret_cast<const char*>(&job), sizeof job); }
std::int64_t decode_job(const std::string& bytes) {
  std::int64_t job = -1;
  std::memcpy(&job, bytes.data(), std::min(bytes.size(), sizeof job));
  return job;
}

std::string encode_outcome(std::size_t job, const Outcome& o) {
  return encode_job(std::int64_t(job)) + char(o.failed) + o.text;
}
Outcome decode_outcome(const std::string& bytes) { return {bytes[sizeof(std::int64_t)] != 0, bytes.substr(sizeof(std::int64_t) + 1)}; }

// Every other process asks once per thread, then once with each result; each ask is answered with a
// job or -1, and a -1 closes that thread's turn. Local threads work meanwhile.
void lead_the_set(const JobSet& jobs, Ledger& ledger, int members) {
  Workers workers(jobs, [&] { return ledger.take(); }, [&](std::size_t i, Outcome o) { ledger.record(i, std::move(o)); });
  for (int open = members * std::max(1, jobs.threads); open > 0;) {
    int from = 0;
    const std::string message = receive(from, -1);
    if (message.size() > sizeof(std::int64_t))
      ledger.record(std::size_t(decode_job(message)), decode_outcome(message), "process " + std::to_string(from));
    const auto job = ledger.take();
    send(encode_job(job ? std::int64_t(*job) : -1), from, Reply);
    if (!job) --open;
  }
}

// A process other than the lead: its main thread carries jobs in from the lead and results out.
void join_the_set(const JobSet& jobs) {
  std::mutex mutex;
  std::condition_variable changed;
  std::deque<std::size_t> todo;
  std::deque<std::pair<std::size_t, Outcome>> done;
  bool closed = false;
  int in_flight = 0;
  auto take = [&]() -> std::optional<std::size_t> {
    std::unique_lock lock(mutex);
    changed.wait(lock, [&] { return !todo.empty() || closed; });
    if (todo.empty()) return std::nullopt;
    const std::size_t i = todo.front();
    todo.pop_front();
    return i;
  };
  auto give = [&](std::size_t i, Outcome o) {
    std::lock_guard lock(mutex);
    done.emplace_back(i, std::move(o));
    changed.notify_all();
  };
  auto ask = [&](const std::string& message, Tag tag) {
    send(message, Lead, tag);
    int from = 0;
    const std::int64_t job = decode_job(receive(from, Reply));
    if (job < 0) return;
    std::lock_guard lock(mutex);
    todo.push_back(std::size_t(job));
    ++in_flight;
    changed.notify_all();
  };
  Workers workers(jobs, take, give);
  for (int t = 0; t < std::max(1, jobs.threads); ++t) ask("", Ask);
  while (in_flight > 0) {
    std::unique_lock lock(mutex);
    changed.wait(lock, [&] { return !done.empty(); });
    const auto [i, outcome] = std::move(done.front());
    done.pop_front();
    --in_flight;
    lock.unlock();
    ask(encode_outcome(i, outcome), Result);
  }
  std::lock_guard lock(mutex);
  closed = true;
  changed.notify_all();
}

}  // namespace

bool run(const std::function<JobSet(bool lead)>& plan) {
  const Mpi& mpi = Mpi::get();
  const bool lead = mpi.rank == Lead;
  JobSet jobs;
  std::exception_ptr error;
  std::string message;
  try {
    jobs = plan(lead);
  } catch (const Error& e) {
    error = std::current_exception();
    message = e.what();
  }
  // Every process learns whether every other one is ready before any job starts.
  std::vector<int> ready(std::size_t(mpi.size), 0);
  const int mine = !error;
  MPI_Allgather(&mine, 1, MPI_INT, ready.data(), 1, MPI_INT, MPI_COMM_WORLD);
  const int failed = int(std::find(ready.begin(), ready.end(), 0) - ready.begin());
  if (failed < mpi.size) {
    if (lead && error) std::rethrow_exception(error);
    if (lead) {
      int from = 0;
      throw JobError("process " + std::to_string(failed) + ": " + receive(from, SetupFailed));
    }
    if (mpi.rank == failed) send(message, Lead, SetupFailed);
    return false;
  }
  if (!lead) {
    join_the_set(jobs);
    return false;
  }
  Ledger ledger(jobs);
  lead_the_set(jobs, ledger, mpi.size - 1);
  ledger.finish();
  return true;
}

int processes() { return Mpi::get().size; }

}  // namespace palace::distributed
