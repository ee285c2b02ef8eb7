// Whether exchanges move data. A trace synthesis (docs/TRACING.md §12) turns it off: one process
// plays every rank in turn, so each message's MPI calls are made and recorded but nothing arrives,
// and packing, unpacking or checking received values would only cost time. Process-wide, because a
// synthesis is a mode of the whole process.
#pragma once

namespace amp::comm {

class DataMovement {
 public:
  static bool on() { return on_; }
  static void turn_off() { on_ = false; }

 private:
  inline static bool on_ = true;
};

}  // namespace amp::comm
