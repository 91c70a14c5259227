// The lead's book of a job set: job order whatever the arrival order, known results kept, a stop
// and a failure. Both builds share it, so these run in both.
#include <gtest/gtest.h>

#include "distributed/ledger.h"

namespace palace::test {
namespace {

using distributed::JobSet;
using distributed::Ledger;

struct Book {
  JobSet jobs;
  std::vector<std::string> delivered, arrived;
  explicit Book(std::size_t count) {
    jobs.count = count;
    jobs.work = [](std::size_t i) { return std::to_string(i) + "r"; };
    jobs.arrived = [this](std::size_t i, const std::string& r) { arrived.push_back(std::to_string(i) + "=" + r); };
    jobs.deliver = [this](std::size_t i, const std::string& r) {
      delivered.push_back(std::to_string(i) + "=" + r);
      return r != "stop";
    };
  }
};

TEST(Ledger, DeliversInJobOrderWhateverOrderResultsArriveIn) {
  Book book(3);
  Ledger ledger(book.jobs);
  EXPECT_EQ(ledger.take(), 0u);
  EXPECT_EQ(ledger.take(), 1u);
  EXPECT_EQ(ledger.take(), 2u);
  EXPECT_EQ(ledger.take(), std::nullopt);
  ledger.record(2, {false, "c"});
  ledger.record(1, {false, "b"});
  EXPECT_TRUE(book.delivered.empty());
  ledger.record(0, {false, "a"});
  EXPECT_EQ(book.delivered, (std::vector<std::string>{"0=a", "1=b", "2=c"}));
  EXPECT_EQ(book.arrived, (std::vector<std::string>{"2=c", "1=b", "0=a"}));
  EXPECT_NO_THROW(ledger.finish());
}

TEST(Ledger, KnownResultsAreDeliveredInTheirPlaceAndNotRunAgain) {
  Book book(4);
  book.jobs.known = {{0, "old0"}, {2, "old2"}};
  Ledger ledger(book.jobs);
  EXPECT_EQ(book.delivered, (std::vector<std::string>{"0=old0"}));
  EXPECT_EQ(ledger.take(), 1u);
  EXPECT_EQ(ledger.take(), 3u);
  EXPECT_EQ(ledger.take(), std::nullopt);
  ledger.record(3, {false, "d"});
  ledger.record(1, {false, "b"});
  EXPECT_EQ(book.delivered, (std::vector<std::string>{"0=old0", "1=b", "2=old2", "3=d"}));
  EXPECT_EQ(book.arrived, (std::vector<std::string>{"3=d", "1=b"}));
}

TEST(Ledger, AFalseDeliveryStopsTheSetAndDropsLaterResults) {
  Book book(4);
  Ledger ledger(book.jobs);
  for (int i = 0; i < 3; ++i) ledger.take();
  ledger.record(1, {false, "stop"});
  ledger.record(0, {false, "a"});
  EXPECT_EQ(ledger.take(), std::nullopt);
  ledger.record(2, {false, "c"});
  EXPECT_EQ(book.delivered, (std::vector<std::string>{"0=a", "1=stop"}));
}

TEST(Ledger, AFailureStopsTheSetAndNamesTheProcess) {
  Book book(3);
  Ledger ledger(book.jobs);
  ledger.take();
  ledger.take();
  ledger.record(1, {true, "cannot start engine \"x\""}, "process 2");
  EXPECT_EQ(ledger.take(), std::nullopt);
  ledger.record(0, {false, "a"});
  EXPECT_TRUE(book.delivered.empty());
  try {
    ledger.finish();
    FAIL() << "no error";
  } catch (const distributed::JobError& e) {
    EXPECT_STREQ(e.what(), "process 2: cannot start engine \"x\"");
  }
}

TEST(Workers, EveryJobRunsOnceAcrossTheThreads) {
  Book book(50);
  book.jobs.threads = 4;
  Ledger ledger(book.jobs);
  {
    distributed::Workers workers(book.jobs, [&] { return ledger.take(); },
                                 [&](std::size_t i, distributed::Outcome o) { ledger.record(i, std::move(o)); });
  }
  ASSERT_EQ(book.delivered.size(), 50u);
  for (std::size_t i = 0; i < 50; ++i) EXPECT_EQ(book.delivered[i], std::to_string(i) + "=" + std::to_string(i) + "r");
}

}  // namespace
}  // namespace palace::test
