#include <tbb/task_arena.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <deque>
#include <exception>
#include <iostream>
#include <optional>
#include <vector>

#include "rebirth/cluster/comm.h"
#include "rebirth/cluster/job.h"
#include "rebirth/cluster/master.h"
#include "rebirth/cluster/search.h"
#include "rebirth/error.h"

using namespace rebirth;
using namespace rebirth::cluster;

namespace {

constexpr int kExitOk = 0;
constexpr int kExitInternal = 1;
constexpr int kExitBadInput = 2;

struct Args {
    std::string job;
    bool resume = false;
    std::string output_dir;
    std::string journal;
    int threads = -1;
    bool list = false;
};

// The problems of a job, one line each: id, kind, file, index in the file, error if any.
void list_problems(const Job& job, std::ostream& out) {
    for (const JobProblem& p : job.problems) {
        out << p.id << '\t' << p.kind << '\t' << p.file << '\t' << p.index;
        if (!p.error.empty()) out << '\t' << p.error;
        out << '\n';
    }
}

// The master's dispatch figures on stderr at the end of a run (read by cluster/bench.sh).
void report_dispatch(const Master& master) {
    const double s = master.dispatch_seconds();
    std::cerr << "rebirth-cluster: " << master.items_handed_out() << " items handed out in " << s << " s ("
              << (s > 0 ? double(master.items_handed_out()) / s : 0.0) << " items/s)\n";
}

// Rank 0 with other ranks: hands out items as workers ask for them (a Ready asks for one, a
// Result for Result::requests more; a worker may have several in flight) until every
// problem is written, then stops each worker that has been heard from. Requests that find
// the queue empty wait until a split brings new items.
int run_master(Comm& comm, Master& master) {
    const int workers = comm.size() - 1;
    std::vector<std::uint64_t> wants(std::size_t(comm.size()), 0);
    std::vector<char> heard(std::size_t(comm.size()), 0);
    std::vector<char> stopped(std::size_t(comm.size()), 0);
    int stopped_count = 0;
    auto feed = [&](int rank) {
        while (wants[std::size_t(rank)] > 0) {
            auto item = master.next_item();
            if (!item) return;
            comm.send(rank, MsgType::Work, serialize(*item));
            --wants[std::size_t(rank)];
        }
    };
    while (stopped_count < workers) {
        // Idle, the master flushes the journal to the disk once its lines are due (the sync
        // interval past the last flush), not at every wait: items of a few milliseconds would
        // each wait for a flush.
        std::optional<Received> waiting = comm.poll();
        if (!waiting) {
            if (auto deadline = master.journal_sync_deadline()) {
                waiting = comm.wait_until(*deadline);
                if (!waiting) {
                    master.sync_journal();
                    continue;
                }
            }
        }
        Received msg = waiting ? std::move(*waiting) : comm.wait();
        if (msg.source < 1 || msg.source >= comm.size()) throw ProtocolError("message from unexpected rank");
        const auto source = std::size_t(msg.source);
        if (stopped[source]) throw ProtocolError("rank " + std::to_string(msg.source) + " sent a message after Stop");
        heard[source] = 1;
        if (msg.frame.type == MsgType::Result) {
            const Result result = deserialize_result(msg.frame.payload);
            master.on_result(result);
            wants[source] += result.requests;
        } else if (msg.frame.type == MsgType::Ready) {
            ++wants[source];
        } else {
            throw ProtocolError("rank " + std::to_string(msg.source) + " sent a message of a master's type");
        }
        feed(msg.source);
        for (int rank = 1; rank < comm.size(); ++rank) feed(rank);
        if (!master.finished()) continue;
        for (int rank = 1; rank < comm.size(); ++rank) {
            if (!heard[std::size_t(rank)] || stopped[std::size_t(rank)]) continue;
            comm.send(rank, MsgType::Stop, "");
            stopped[std::size_t(rank)] = 1;
            ++stopped_count;
        }
    }
    master.sync_journal();
    return master.exit_code();
}

// Any other rank: runs up to `threads` items at once (the TBB thread count of its latest
// item, all cores of the rank when the job leaves it 0), each on a pool thread with its own
// TBB arena; only this thread calls MPI. It holds as many items again in a queue, so that a
// thread that finishes starts its next item at once instead of after a round trip to the
// master (items of a millisecond spent most of their time waiting for the next). Each
// result is sent as it completes and asks for as many new items as places are free.
void run_worker(Comm& comm) {
    ProblemCache cache;
    ItemPool pool(cache);
    const int all_cores = std::max(1, tbb::this_task_arena::max_concurrency());
    int slots = 1;                // items to run at once
    int requested = 1;            // asked for and not received yet
    std::deque<WorkItem> queued;  // received, waiting for a free thread
    comm.send(0, MsgType::Ready, "");
    constexpr auto kShortPause = std::chrono::microseconds(50);
    auto pause = kShortPause;
    auto held = [&] { return pool.in_flight() + int(queued.size()) + requested; };
    auto free_slots = [&] { return std::max(0, std::min(2 * slots, int(kMaxRequests)) - held()); };
    auto start_queued = [&] {
        while (!queued.empty() && pool.in_flight() < slots) {
            pool.submit(std::move(queued.front()));
            queued.pop_front();
        }
    };
    auto send_result = [&](Result r) {
        r.requests = std::uint32_t(free_slots());
        requested += int(r.requests);
        comm.send(0, MsgType::Result, serialize(r));
    };
    for (;;) {
        std::optional<Received> msg = pool.in_flight() == 0 ? std::optional(comm.wait(0)) : comm.poll(0);
        if (msg) {
            pause = kShortPause;
            if (msg->frame.type == MsgType::Stop) {
                if (pool.in_flight() > 0 || !queued.empty())
                    throw ProtocolError("the master sent Stop while items are in flight");
                return;
            }
            if (msg->frame.type != MsgType::Work) throw ProtocolError("the master sent a message of a worker's type");
            if (requested <= 0) throw ProtocolError("the master sent an item that was not asked for");
            WorkItem item = deserialize_work_item(msg->frame.payload);
            --requested;
            slots = std::clamp(item.threads > 0 ? int(item.threads) : all_cores, 1, int(kMaxRequests));
            if (item.kind == SearchKind::Noop) {
                send_result(run_item(item, cache));  // answered at once, without a thread hand-off
                continue;
            }
            queued.push_back(std::move(item));
            start_queued();
            for (int n = free_slots(); n > 0; --n, ++requested) comm.send(0, MsgType::Ready, "");
            continue;
        }
        std::vector<Result> results = pool.take(pause);
        pause = results.empty() ? std::min(pause * 2, std::chrono::microseconds(2000)) : kShortPause;
        start_queued();
        for (Result& r : results) send_result(std::move(r));
    }
}

// One rank alone: the master searches its items itself.
int run_alone(Master& master) {
    ProblemCache cache;
    while (auto item = master.next_item()) master.on_result(run_item(*item, cache));
    master.sync_journal();
    return master.exit_code();
}

// Master side start-up failure: every worker is told to stop, then the code is returned.
int stop_workers(Comm& comm, int code) {
    for (int rank = 1; rank < comm.size(); ++rank) {
        comm.wait(rank);
        comm.send(rank, MsgType::Stop, "");
    }
    return code;
}

}  // namespace

int main(int argc, char** argv) {
    Args args;
    CLI::App app{"rebirth-cluster: distributed search of chess problems over Open MPI ranks"};
    app.add_option("job", args.job, "Job file (JSON), see cluster/README.md")->required();
    app.add_flag("--resume", args.resume,
                 "Continue the run recorded in the job's journal (a missing journal starts afresh)");
    app.add_option("--output-dir", args.output_dir, "Override the job's output_dir");
    app.add_option("--journal", args.journal, "Override the job's journal path");
    app.add_option("--threads", args.threads, "Override every problem's limits.threads (0 = all cores of a rank)")
        ->check(CLI::Range(0, 4096));
    app.add_flag("--list", args.list, "Print the job's problems (id, kind, file, index) and exit");
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e) == 0 ? kExitOk : kExitBadInput;
    }

    if (args.list) {
        try {
            list_problems(load_job(args.job), std::cout);
            return kExitOk;
        } catch (const InputError& e) {
            std::cerr << "rebirth-cluster: " << e.what() << "\n";
            return kExitBadInput;
        }
    }

    std::unique_ptr<Comm> comm;
    try {
        comm = std::make_unique<Comm>(argc, argv);
    } catch (const std::exception& e) {
        std::cerr << "rebirth-cluster: " << e.what() << "\n";
        return kExitInternal;
    }
    try {
        if (comm->rank() != 0) {
            run_worker(*comm);
            return kExitOk;
        }
        std::unique_ptr<Master> master;
        try {
            Job job = load_job(args.job);
            if (!args.output_dir.empty()) job.output_dir = args.output_dir;
            if (!args.journal.empty()) job.journal = args.journal;
            if (args.threads >= 0)
                for (JobProblem& p : job.problems) p.limits.threads = args.threads;
            MasterOptions options;
            options.resume = args.resume;
            options.worker_ranks = std::max(1, comm->size() - 1);
            options.progress = &std::cerr;
            options.summary = &std::cout;
            master = std::make_unique<Master>(std::move(job), options);
        } catch (const InputError& e) {
            std::cerr << "rebirth-cluster: " << e.what() << "\n";
            return stop_workers(*comm, kExitBadInput);
        }
        const int code = comm->size() == 1 ? run_alone(*master) : run_master(*comm, *master);
        report_dispatch(*master);
        return code;
    } catch (const ProtocolError& e) {
        std::cerr << "rebirth-cluster: rank " << comm->rank() << ": protocol error: " << e.what()
                  << "; stopping the run (the journal keeps the finished items)\n";
        comm->abort(kExitInternal);
    } catch (const std::exception& e) {
        std::cerr << "rebirth-cluster: rank " << comm->rank() << ": " << e.what() << "\n";
        comm->abort(kExitInternal);
    }
}
