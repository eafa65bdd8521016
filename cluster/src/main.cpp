#include <CLI/CLI.hpp>

#include <exception>
#include <iostream>
#include <set>

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

// Rank 0 with other ranks: hands out items on request until every problem is written, then
// stops each worker. Workers with nothing to do wait until a split brings new items.
int run_master(Comm& comm, Master& master) {
    std::set<int> idle;
    int stopped = 0;
    const int workers = comm.size() - 1;
    auto feed = [&](int rank) {
        if (auto item = master.next_item()) {
            comm.send(rank, MsgType::Work, serialize(*item));
        } else if (master.finished()) {
            comm.send(rank, MsgType::Stop, "");
            ++stopped;
        } else {
            idle.insert(rank);
        }
    };
    while (stopped < workers) {
        Received msg = comm.wait();
        if (msg.source < 1 || msg.source >= comm.size()) throw ProtocolError("message from unexpected rank");
        if (msg.frame.type == MsgType::Result) {
            master.on_result(deserialize_result(msg.frame.payload));
        } else if (msg.frame.type != MsgType::Ready) {
            throw ProtocolError("rank " + std::to_string(msg.source) + " sent a message of a master's type");
        }
        feed(msg.source);
        std::set<int> waiting;
        waiting.swap(idle);
        for (int rank : waiting) feed(rank);
    }
    return master.exit_code();
}

// Any other rank: asks for work, searches each item with TBB threads, sends the result.
void run_worker(Comm& comm) {
    ProblemCache cache;
    comm.send(0, MsgType::Ready, "");
    for (;;) {
        Received msg = comm.wait(0);
        if (msg.frame.type == MsgType::Stop) return;
        if (msg.frame.type != MsgType::Work) throw ProtocolError("the master sent a message of a worker's type");
        WorkItem item = deserialize_work_item(msg.frame.payload);
        comm.send(0, MsgType::Result, serialize(run_item(item, cache)));
    }
}

// One rank alone: the master searches its items itself.
int run_alone(Master& master) {
    ProblemCache cache;
    while (auto item = master.next_item()) master.on_result(run_item(*item, cache));
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
