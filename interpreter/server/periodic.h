// Work done on a thread of its own every so often, until the owner goes: the store's WAL
// checkpoints, the server's expiry of idle uploads.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace palace::server {

class Periodic {
 public:
  // Runs `work` every `period`, the first time one period from now. `work` must not throw.
  Periodic(std::chrono::milliseconds period, std::function<void()> work);
  ~Periodic();  // waits for a run under way, then ends the thread
  Periodic(const Periodic&) = delete;
  Periodic& operator=(const Periodic&) = delete;

 private:
  std::condition_variable wake_;
  std::mutex mutex_;
  bool stopping_ = false;  // under mutex_
  std::thread thread_;     // last: started once the rest is ready
};

}  // namespace palace::server
