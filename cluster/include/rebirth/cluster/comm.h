#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "rebirth/cluster/messages.h"

namespace rebirth::cluster {

struct Received {
    int source = -1;
    Frame frame;
};

// The thin MPI layer: MPI_THREAD_FUNNELED (only the main thread calls MPI), framed byte
// messages on MPI_COMM_WORLD with one tag. Frames are checked on receipt (decode_frame);
// a bad frame throws ProtocolError.
class Comm {
  public:
    Comm(int& argc, char**& argv);
    ~Comm();
    Comm(const Comm&) = delete;
    Comm& operator=(const Comm&) = delete;

    int rank() const { return rank_; }
    int size() const { return size_; }
    void send(int dest, MsgType type, std::string_view payload);
    // A waiting message from any rank (or from `source`), or nothing.
    std::optional<Received> poll(int source = -1);
    // The next message from any rank (or from `source`): polls for 200 us, then sleeps
    // between polls (50 us doubling to 2 ms) so an idle rank leaves its core to the
    // searching threads.
    Received wait(int source = -1);
    // As wait, but gives up at `deadline` (nothing then).
    std::optional<Received> wait_until(std::chrono::steady_clock::time_point deadline, int source = -1);
    // Ends every rank of the run with `code` (after a fatal error).
    [[noreturn]] void abort(int code);

  private:
    std::optional<Received> poll_from(int source);
    int rank_ = 0;
    int size_ = 1;
};

}  // namespace rebirth::cluster
