#include "server/periodic.h"

#include <utility>

namespace palace::server {

Periodic::Periodic(std::chrono::milliseconds period, std::function<void()> work)
    : thread_([this, period, work = std::move(work)] {
        std::unique_lock lock(mutex_);
        while (!wake_.wait_for(lock, period, [this] { return stopping_; })) {
          lock.unlock();  // the owner's destructor may wait for the work, not for the lock
          work();
          lock.lock();
        }
      }) {}

Periodic::~Periodic() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  thread_.join();
}

}  // namespace palace::server
