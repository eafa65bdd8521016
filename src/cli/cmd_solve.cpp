#include <atomic>
#include <chrono>
#include <condition_variable>
#include <iomanip>
#include <iostream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <tbb/global_control.h>
#include <tbb/info.h>

#include "cli/cli.h"
#include "rebirth/error.h"
#include "rebirth/popeye_input.h"
#include "rebirth/popeye_output.h"
#include "rebirth/retro_problem.h"
#include "rebirth/solution_json.h"
#include "rebirth/solve.h"
#include "rebirth/unmove.h"

namespace rebirth::cli {

namespace {

// Prints a progress line on stderr every two seconds while a problem is being solved.
class Heartbeat {
  public:
    Heartbeat(std::string what, const std::atomic<std::uint64_t>& nodes, const std::atomic<int>& root_done,
              const std::atomic<int>& root_total, bool enabled)
        : what_(std::move(what)), nodes_(nodes), root_done_(root_done), root_total_(root_total) {
        if (enabled) thread_ = std::thread([this] { run(); });
    }
    ~Heartbeat() {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            done_ = true;
        }
        cv_.notify_all();
        if (thread_.joinable()) thread_.join();
    }

  private:
    void run() {
        const auto start = std::chrono::steady_clock::now();
        std::unique_lock<std::mutex> lock(mutex_);
        while (!cv_.wait_for(lock, std::chrono::seconds(2), [this] { return done_; })) {
            const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            const std::uint64_t n = nodes_.load(std::memory_order_relaxed);
            std::cerr << "rebirth: " << what_ << ": root moves " << root_done_.load(std::memory_order_relaxed) << "/"
                      << root_total_.load(std::memory_order_relaxed) << ", " << n << " nodes, " << std::fixed
                      << std::setprecision(0) << (elapsed > 0 ? double(n) / elapsed : 0) << " nodes/s, "
                      << std::setprecision(1) << elapsed << " s" << std::endl;
        }
    }

    std::string what_;
    const std::atomic<std::uint64_t>& nodes_;
    const std::atomic<int>& root_done_;
    const std::atomic<int>& root_total_;
    std::mutex mutex_;
    std::condition_variable cv_;
    bool done_ = false;
    std::thread thread_;
};

// Reports `e` for the problem being worked on: on stdout in place of its solution, on
// stderr, and in its JSON summary (status "bad-input").
void report_bad_input(const InputError& e, nlohmann::json& summary) {
    std::cout << "rebirth: " << e.what() << "\n\n";
    std::cout.flush();
    std::cerr << "rebirth: " << e.what() << "\n";
    summary["status"] = "bad-input";
    summary["error"] = e.what();
}

}  // namespace

// Bad input inside a problem (found by the parser, or by the solver in the conditions or the
// diagram) is reported for that problem and the file goes on; the exit code is then 2. For a
// parse error nothing but the error line is printed for the problem: its header would show a
// half-read diagram and stipulation, which is not what Popeye prints either.
// Whether `s` is a proof game (dia..., a=>b...).
static bool is_proof_game(const Stipulation& s) {
    return s.play == Stipulation::Play::ProofGame || s.play == Stipulation::Play::AToB;
}

// A proof game's (dia, a=>b) verdict for --json: "unique" (one game in every twin), "cooked"
// (more than one in some twin, also when MaxSolutions stopped after the second),
// "no-solution", "timeout", or "partial" (MaxSolutions stopped at one); none for other play.
static std::optional<std::string> proof_game_verdict(const Problem& p, const SolveReport& report) {
    if (!is_proof_game(p.stipulation)) return std::nullopt;
    const std::string status = report.status();
    if (status == "solved") return "unique";
    if (status == "partial") {
        for (int n : report.twin_solutions)
            if (n > 1) return "cooked";
        return "partial";
    }
    return status;
}

// --pgn: solves proof-game problem `p` and prints its games as PGN on stdout; says on stderr
// how many were found, or why none is printed (another stipulation, bad input, time limit).
// False when the problem was not solved completely.
static bool solve_pgn(const Problem& p, const std::string& id, int threads, const SolveLimits& limits, bool quiet) {
    bool all_proof = is_proof_game(p.stipulation);
    for (const Twin& t : p.twins)
        for (const TwinOp& op : t.ops)
            if (op.kind == TwinOp::Kind::Stipulation && !is_proof_game(op.stipulation)) all_proof = false;
    if (!all_proof) {
        std::cerr << "rebirth: " << id << ": stipulation " << p.stipulation.text
                  << " left out: --pgn writes proof games (dia, a=>b) only\n";
        return false;
    }
    try {
        std::atomic<std::uint64_t> nodes{0};
        std::atomic<int> root_done{0}, root_total{0};
        SolveReport report;
        {
            Heartbeat heartbeat(id, nodes, root_done, root_total, !quiet);
            report = solve_problem_report(p, threads, limits, &nodes, &root_done, &root_total);
        }
        std::cout << proof_games_pgn(p, report);
        std::cout.flush();
        const auto verdict = proof_game_verdict(p, report);
        std::cerr << "rebirth: " << id << ": " << report.proof_games.size() << " proof game(s) written"
                  << (verdict ? " (" + *verdict + ")" : "") << "\n";
        for (const std::string& note : report.notes) std::cerr << "rebirth: " << id << ": " << note << "\n";
        return report.supported && !report.timed_out;
    } catch (const InputError& e) {
        std::cerr << "rebirth: " << e.what() << "\n";
        return false;
    }
}

int run_solve(const SolveArgs& args) {
    std::vector<Problem> problems = parse_popeye_file(args.file, ParseMode::Recover);
    const int threads = args.threads > 0 ? args.threads : tbb::info::default_concurrency();
    SolveLimits limits;
    limits.max_seconds = args.max_seconds;
    limits.show_time = !args.regression;
    int unsolved = 0;
    for (size_t index = 0; index < problems.size(); ++index) {
        const Problem& p = problems[index];
        const std::string id = p.where.file + ":" + std::to_string(p.where.line);
        nlohmann::json summary{{"id", id}, {"stipulation", p.stipulation.text}, {"threads", threads}};
        if (args.pgn) {
            // stdout holds only PGN: everything else goes to stderr.
            if (p.error) std::cerr << "rebirth: " << p.error->what() << "\n";
            if (p.error || !solve_pgn(p, id, args.threads, limits, args.quiet)) ++unsolved;
            continue;
        }
        if (p.error) {
            report_bad_input(*p.error, summary);
            ++unsolved;
        } else {
            std::cout << format_header(p);
            try {
                if (p.stipulation.retro()) {
                    const RetroProblemReport report = solve_retro_problem(p, args.threads, args.max_seconds);
                    std::cout << report.text;
                    summary["status"] = report.supported ? "solved" : "unsupported";
                    if (report.supported) summary["verdict"] = report.verdict;
                    summary["solutions"] = report.solutions;
                    summary["side"] = report.side;
                    if (!report.supported) ++unsolved;
                    if (args.json) std::cout << summary.dump() << "\n";
                    std::cout.flush();
                    continue;
                }
                std::atomic<std::uint64_t> nodes{0};
                std::atomic<int> root_done{0}, root_total{0};
                SolveReport report;
                {
                    Heartbeat heartbeat(id, nodes, root_done, root_total, !args.quiet);
                    report = solve_problem_report(p, args.threads, limits, &nodes, &root_done, &root_total);
                }
                std::cout << report.text;
                if (!report.supported) ++unsolved;
                summary["status"] = report.status();
                summary["solutions"] = report.solutions;
                if (const auto v = proof_game_verdict(p, report)) summary["verdict"] = *v;
                summary["nodes"] = report.nodes;
                summary["seconds"] = report.seconds;
                if (args.json) summary["found"] = solutions_json(p, report);
                if (!report.notes.empty()) summary["reasons"] = report.notes;
                for (const std::string& note : report.notes) std::cerr << "rebirth: " << id << ": " << note << "\n";
            } catch (const InputError& e) {
                // Bad conditions or diagram: say so for this problem and go on with the next one.
                report_bad_input(e, summary);
                ++unsolved;
            }
        }
        if (args.json) std::cout << summary.dump() << "\n";
        std::cout.flush();
    }
    if (unsolved)
        std::cerr << "rebirth: " << unsolved << " of " << problems.size() << " problem(s) of " << args.file
                  << " not solved (see the messages above)\n";
    return unsolved ? kExitBadInput : kExitOk;
}

}  // namespace rebirth::cli
