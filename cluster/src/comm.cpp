#include "rebirth/cluster/comm.h"

#include <mpi.h>

#include <chrono>
#include <climits>
#include <stdexcept>
#include <thread>

namespace rebirth::cluster {

namespace {

constexpr int kTag = 17;

void check(int rc, const char* what) {
    if (rc != MPI_SUCCESS) throw std::runtime_error(std::string("MPI call failed: ") + what);
}

}  // namespace

Comm::Comm(int& argc, char**& argv) {
    int provided = 0;
    check(MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
    if (provided < MPI_THREAD_FUNNELED) {
        MPI_Finalize();
        throw std::runtime_error("the MPI library does not provide MPI_THREAD_FUNNELED");
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    check(MPI_Comm_rank(MPI_COMM_WORLD, &rank_), "MPI_Comm_rank");
    check(MPI_Comm_size(MPI_COMM_WORLD, &size_), "MPI_Comm_size");
}

Comm::~Comm() { MPI_Finalize(); }

void Comm::send(int dest, MsgType type, std::string_view payload) {
    std::string frame = encode_frame(type, payload);
    if (frame.size() > std::size_t(INT_MAX)) throw std::runtime_error("message too large for one MPI send");
    check(MPI_Send(frame.data(), int(frame.size()), MPI_BYTE, dest, kTag, MPI_COMM_WORLD), "MPI_Send");
}

std::optional<Received> Comm::poll_from(int source) {
    int flag = 0;
    MPI_Status status;
    check(MPI_Iprobe(source < 0 ? MPI_ANY_SOURCE : source, kTag, MPI_COMM_WORLD, &flag, &status), "MPI_Iprobe");
    if (!flag) return std::nullopt;
    int count = 0;
    check(MPI_Get_count(&status, MPI_BYTE, &count), "MPI_Get_count");
    std::string bytes(std::size_t(count < 0 ? 0 : count), '\0');
    check(MPI_Recv(bytes.data(), count, MPI_BYTE, status.MPI_SOURCE, kTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE),
          "MPI_Recv");
    Received r;
    r.source = status.MPI_SOURCE;
    try {
        r.frame = decode_frame(bytes);
    } catch (const ProtocolError& e) {
        throw ProtocolError("from rank " + std::to_string(r.source) + ": " + e.what());
    }
    return r;
}

std::optional<Received> Comm::poll(int source) { return poll_from(source); }

Received Comm::wait(int source) { return *wait_until(std::chrono::steady_clock::time_point::max(), source); }

std::optional<Received> Comm::wait_until(std::chrono::steady_clock::time_point deadline, int source) {
    using Clock = std::chrono::steady_clock;
    // A reply often comes within a round trip: poll (yielding the core) for a short while
    // before sleeping, so short items are not slowed down by the sleep's wake-up latency.
    const auto spin_until = std::min(deadline, Clock::now() + std::chrono::microseconds(200));
    while (Clock::now() < spin_until) {
        if (auto r = poll_from(source)) return r;
        std::this_thread::yield();
    }
    auto pause = std::chrono::microseconds(50);
    for (;;) {
        if (auto r = poll_from(source)) return r;
        const auto now = Clock::now();
        if (now >= deadline) return std::nullopt;
        std::this_thread::sleep_for(std::min<Clock::duration>(pause, deadline - now));
        pause = std::min(pause * 2, std::chrono::microseconds(2000));
    }
}

void Comm::abort(int code) {
    MPI_Abort(MPI_COMM_WORLD, code);
    std::abort();
}

}  // namespace rebirth::cluster
