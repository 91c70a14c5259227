// The move lists of the nodes a search has open, on the heap. A list has room for MaxMoves, what
// the largest variants need, and a line runs to MaxPly nodes and more: a thread's stack cannot
// hold a list and its scores for each, the heap can. A node takes a frame before it generates
// its moves and gives it back when it returns. A singular-extension search opens a second node at
// the same ply, so frames follow the nesting of the calls, not the ply.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "core/types.h"
#include "search/move_order.h"

namespace palace::search {

struct NodeFrame {
  MoveList list;
  MoveScores scores;
};

class NodeFrames {
 public:
  // A node's frame for as long as the node is open.
  class Lease {
   public:
    explicit Lease(NodeFrames& frames) : frames_(frames), frame_(frames.open()) {}
    ~Lease() { --frames_.open_; }
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    NodeFrame& operator*() const { return frame_; }
    NodeFrame* operator->() const { return &frame_; }

   private:
    NodeFrames& frames_;
    NodeFrame& frame_;
  };

 private:
  // A frame is made the first time a line nests this deep and kept for the searcher's life, so
  // searching allocates only on its first deep lines. It is left uninitialised (`new T`, not
  // `new T()`): the system maps its pages only as the moves written reach them.
  NodeFrame& open() {
    if (open_ == frames_.size()) frames_.push_back(std::unique_ptr<NodeFrame>(new NodeFrame));
    return *frames_[open_++];
  }

  std::vector<std::unique_ptr<NodeFrame>> frames_;
  std::size_t open_ = 0;
};

}  // namespace palace::search
