// rebirth's benchmark: single-thread perft speed against Stockfish's `go perft`, the deep
// perft checks of the Chess Programming Wiki positions, the parallel_perft speed-up, and the
// time per position of the static legality analysis.
// Built as the `bench` target when this file exists; run by scripts/bench.sh, never by ctest.
// Google Benchmark flags (--benchmark_filter=...) pass through; the summary comes last and
// the exit status is 1 when a leaf count is wrong or a run failed.

#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <map>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "rebirth/legality.h"
#include "rebirth/movegen.h"
#include "rebirth/perft.h"
#include "rebirth/popeye_input.h"
#include "rebirth/position.h"
#include "rebirth/rules.h"
#include "rebirth/setup.h"
#include "rebirth/solve.h"

extern char** environ;

namespace rebirth {
namespace {

using Clock = std::chrono::steady_clock;

constexpr const char* start_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
constexpr const char* kiwipete_fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
constexpr int speed_depth = 6;
constexpr std::uint64_t speed_expected = 119060324;
constexpr int parallel_depth = 5;
constexpr std::uint64_t kiwipete_d5 = 193690690;

struct PerftCase {
    const char* name;
    const char* fen;
    int depth;
    std::uint64_t expected;
};

// Positions and counts from the Chess Programming Wiki page "Perft Results".
constexpr std::array<PerftCase, 4> deep_cases{{
    {"kiwipete", kiwipete_fen, 5, kiwipete_d5},
    {"cpw3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 5, 674624},
    {"cpw4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 5, 15833292},
    {"cpw5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 0 8", 5, 89941194},
}};

struct Measurement {
    std::uint64_t nodes = 0;
    std::uint64_t expected = 0;
    double seconds = 0;
    std::string error;  // set when the run threw or the engine failed
    bool ok() const { return error.empty() && nodes == expected; }
    double nodes_per_second() const { return seconds > 0 ? static_cast<double>(nodes) / seconds : 0; }
};

// Everything the plain summary at the end needs; benchmarks run one after the other.
struct Summary {
    std::optional<Measurement> rebirth_speed;
    std::optional<Measurement> stockfish_speed;
    std::string stockfish_banner;
    std::map<std::string, Measurement> checks;      // by case name
    std::map<int, Measurement> parallel;            // by thread count
    std::map<std::string, Measurement> conditions;  // Kiwipete perft under a condition, by words
    std::map<int, double> solve_seconds;            // the problem set solved with 1 and 2 threads
    std::map<int, std::string> solve_output;        // their outputs (must be identical)
    int solve_problems = 0;
    std::string solve_error;
};

// (e) The published problems of data/problems/ solved with 1 and with 2 threads: the time of
// each run, the speed-up, and a check that both print exactly the same.
std::vector<std::string> solve_files() {
    std::vector<std::string> files;
    for (const auto& e : std::filesystem::directory_iterator(REBIRTH_SOURCE_DIR "/data/problems"))
        if (e.path().extension() == ".inp") files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
    return files;
}

// (d) Kiwipete perft under Circe conditions, as ratios to orthodox perft in the same run. The
// counts are checked by the tests at depth 3 against Popeye; here depth 5 is timed (at depth 4
// orthodox perft takes a few hundredths of a second, too short to time).
constexpr int condition_depth = 5;
const char* const condition_words[] = {"", "Circe", "AntiCirce", "Circe Assassin", "MarsCirce"};

Summary& summary() {
    static Summary s;
    return s;
}

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// Sets the Google Benchmark counters of a finished one-iteration run, or marks it failed.
void report(benchmark::State& state, const std::string& what, const Measurement& m) {
    if (!m.error.empty()) {
        state.SkipWithError(m.error.c_str());
        return;
    }
    state.counters["nodes"] = benchmark::Counter(static_cast<double>(m.nodes));
    state.counters["nodes/s"] = benchmark::Counter(static_cast<double>(m.nodes), benchmark::Counter::kIsRate);
    if (m.nodes != m.expected) {
        std::fprintf(stderr, "\n*** PERFT MISMATCH in %s: %llu leaves, expected %llu ***\n\n", what.c_str(),
                     static_cast<unsigned long long>(m.nodes), static_cast<unsigned long long>(m.expected));
        state.SkipWithError("perft count mismatch");
    }
}

// Times one call of `count` (a perft on a fresh position) inside the benchmark loop.
template <class Count>
Measurement timed_perft(benchmark::State& state, const std::string& what, const char* fen, std::uint64_t expected,
                        Count count) {
    Measurement m;
    m.expected = expected;
    try {
        const Position root(parse_fen(fen, "<bench>"));
        for (auto _ : state) {
            Position pos = root;
            const auto start = Clock::now();
            m.nodes = count(pos);
            m.seconds = seconds_since(start);
            benchmark::DoNotOptimize(m.nodes);
        }
    } catch (const std::exception& e) {
        m.error = std::string("exception: ") + e.what();
    }
    report(state, what, m);
    return m;
}

// A child Stockfish process with pipes to its standard input and from its standard output.
class Engine {
  public:
    explicit Engine(const std::string& path) {
        int in[2];
        int out[2];
        if (pipe2(in, O_CLOEXEC) != 0) throw std::runtime_error("pipe failed");
        if (pipe2(out, O_CLOEXEC) != 0) {
            close(in[0]);
            close(in[1]);
            throw std::runtime_error("pipe failed");
        }
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_adddup2(&actions, in[0], STDIN_FILENO);
        posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
        std::string arg0 = path;
        char* argv[] = {arg0.data(), nullptr};
        const int rc = posix_spawnp(&pid_, path.c_str(), &actions, nullptr, argv, environ);
        posix_spawn_file_actions_destroy(&actions);
        close(in[0]);
        close(out[1]);
        if (rc != 0) {
            close(in[1]);
            close(out[0]);
            throw std::runtime_error("cannot start " + path + " (set REBIRTH_STOCKFISH or install package stockfish)");
        }
        to_ = in[1];
        from_ = fdopen(out[0], "r");
    }

    Engine(const Engine&) = delete;
    Engine& operator=(const Engine&) = delete;

    ~Engine() {
        send("quit\n");
        close(to_);
        while (std::fgetc(from_) != EOF) {
        }
        std::fclose(from_);
        int status = 0;
        waitpid(pid_, &status, 0);
    }

    // Writes a command; a dead engine shows up as end of output on the next read.
    void send(std::string_view text) {
        while (!text.empty()) {
            const ssize_t n = write(to_, text.data(), text.size());
            if (n <= 0) return;
            text.remove_prefix(static_cast<size_t>(n));
        }
    }

    // Next output line without its line end; false at end of output.
    bool read_line(std::string& line) {
        line.clear();
        int c;
        while ((c = std::fgetc(from_)) != EOF && c != '\n') line.push_back(static_cast<char>(c));
        if (!line.empty() && line.back() == '\r') line.pop_back();
        return c != EOF || !line.empty();
    }

  private:
    pid_t pid_ = -1;
    int to_ = -1;
    FILE* from_ = nullptr;
};

// The Stockfish binary: $REBIRTH_STOCKFISH, else Debian's /usr/games/stockfish, else PATH.
std::string stockfish_path() {
    if (const char* env = std::getenv("REBIRTH_STOCKFISH"); env != nullptr && *env != '\0') return env;
    if (access("/usr/games/stockfish", X_OK) == 0) return "/usr/games/stockfish";
    return "stockfish";
}

// Runs `go perft depth` on the initial position in Stockfish. The clock starts after the
// engine answered `isready` (start-up and network loading excluded) and stops at the
// "Nodes searched" line. Stockfish's perft is single-threaded with bulk counting, like ours.
Measurement stockfish_perft(int depth, std::string& banner) {
    Measurement m;
    m.expected = speed_expected;
    Engine engine(stockfish_path());
    std::string line;
    if (!engine.read_line(banner)) throw std::runtime_error("stockfish printed nothing");
    engine.send("isready\n");
    while (line != "readyok") {
        if (!engine.read_line(line)) throw std::runtime_error("stockfish ended before readyok");
    }
    const auto start = Clock::now();
    engine.send("position startpos\ngo perft " + std::to_string(depth) + "\n");
    constexpr std::string_view tag = "Nodes searched:";
    while (line.compare(0, tag.size(), tag) != 0) {
        if (!engine.read_line(line)) throw std::runtime_error("stockfish ended before its perft result");
    }
    m.seconds = seconds_since(start);
    m.nodes = std::stoull(line.substr(tag.size()));
    return m;
}

// (a) rebirth: single-thread perft(6) of the initial position.
void bm_rebirth_start(benchmark::State& state) {
    summary().rebirth_speed = timed_perft(state, "rebirth perft start", start_fen, speed_expected,
                                          [](Position& pos) { return perft(pos, speed_depth); });
}

// (a) Stockfish: `go perft 6` of the initial position, timed by hand (its own process).
void bm_stockfish_start(benchmark::State& state) {
    Measurement m;
    m.expected = speed_expected;
    for (auto _ : state) {
        try {
            m = stockfish_perft(speed_depth, summary().stockfish_banner);
            state.SetIterationTime(m.seconds);
        } catch (const std::exception& e) {
            m.error = e.what();
            state.SetIterationTime(1e-9);
        }
    }
    report(state, "stockfish perft", m);
    summary().stockfish_speed = m;
}

// (b) One deep perft check, single thread.
void bm_check(benchmark::State& state, const PerftCase& c) {
    summary().checks[c.name] =
        timed_perft(state, c.name, c.fen, c.expected, [&c](Position& pos) { return perft(pos, c.depth); });
}

// (c) parallel_perft of Kiwipete at depth 5 with a given thread count.
void bm_parallel(benchmark::State& state, int threads) {
    summary().parallel[threads] =
        timed_perft(state, "parallel_perft kiwipete", kiwipete_fen, kiwipete_d5,
                    [threads](Position& pos) { return parallel_perft(pos, parallel_depth, threads); });
}

void bm_condition(benchmark::State& state, const char* words) {
    Measurement m;
    try {
        const RuleSet rules = resolve_rules(parse_condition_words(words, "<bench>"), "<bench>");
        SetupRules setup_rules;
        setup_rules.rules = &rules;
        const Position root(parse_fen(kiwipete_fen, "<bench>"), setup_rules);
        for (auto _ : state) {
            Position pos = root;
            const auto start = Clock::now();
            m.nodes = perft(pos, condition_depth);
            m.seconds = seconds_since(start);
            benchmark::DoNotOptimize(m.nodes);
        }
        m.expected = m.nodes;  // speed only: the counts are the tests' business
    } catch (const std::exception& e) {
        m.error = std::string("exception: ") + e.what();
    }
    report(state, words, m);
    summary().conditions[words] = m;
}

void bm_solve(benchmark::State& state, int threads) {
    Summary& s = summary();
    try {
        std::vector<Problem> problems;
        for (const std::string& f : solve_files())
            for (Problem& p : parse_popeye_file(f)) problems.push_back(std::move(p));
        s.solve_problems = static_cast<int>(problems.size());
        for (auto _ : state) {
            std::string out;
            const auto start = Clock::now();
            for (const Problem& p : problems) out += solve_problem(p, threads);
            s.solve_seconds[threads] = seconds_since(start);
            s.solve_output[threads] = std::move(out);
        }
        state.counters["problems"] = benchmark::Counter(static_cast<double>(s.solve_problems));
    } catch (const std::exception& e) {
        s.solve_error = e.what();
        state.SkipWithError(e.what());
    }
}

// The static legality analysis (legality.h) over the positions of 300 seeded random games of
// 150 half-moves, half of whose moves are pawn moves when there is one: the time per position
// (seconds_per_position), which every retraction of a retro search and every Alsatian
// capture pays.
void bm_legality(benchmark::State& state) {
    std::vector<Setup> positions;
    std::mt19937 rng(7);
    for (int game = 0; game < 300; ++game) {
        Position pos(parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "<bench>"));
        MoveList list;
        for (int ply = 0; ply < 150; ++ply) {
            generate_legal(pos, list);
            if (list.size() == 0) break;
            std::vector<Move> pawn_moves;
            for (const Move& m : list)
                if (pos.piece_on(m.from).walk == PAWN) pawn_moves.push_back(m);
            const Move m =
                !pawn_moves.empty() && rng() % 2 ? pawn_moves[rng() % pawn_moves.size()] : list[rng() % list.size()];
            UndoInfo undo;
            pos.do_move(m, undo);
            positions.push_back(pos.to_setup());
        }
    }
    for (auto _ : state) {
        int illegal = 0;
        for (const Setup& s : positions) illegal += analyze_orthodox_legality(s.board, s.side_to_move).illegal;
        benchmark::DoNotOptimize(illegal);
    }
    state.counters["positions"] = benchmark::Counter(static_cast<double>(positions.size()));
    state.counters["seconds_per_position"] = benchmark::Counter(
        static_cast<double>(positions.size()),
        benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert, benchmark::Counter::OneK::kIs1000);
}

void register_benchmarks() {
    benchmark::RegisterBenchmark("legality_analysis/random_games", bm_legality)->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("perft_start_d6/rebirth", bm_rebirth_start)
        ->Iterations(1)
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("perft_start_d6/stockfish", bm_stockfish_start)
        ->Iterations(1)
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
    for (const PerftCase& c : deep_cases) {
        const std::string name = std::string("perft_check/") + c.name + "/depth:" + std::to_string(c.depth);
        benchmark::RegisterBenchmark(name.c_str(), bm_check, c)
            ->Iterations(1)
            ->UseRealTime()
            ->Unit(benchmark::kMillisecond);
    }
    for (const char* words : condition_words) {
        const std::string name = std::string("condition_perft/kiwipete/depth:4/") + (*words ? words : "orthodox");
        benchmark::RegisterBenchmark(name.c_str(), bm_condition, words)
            ->Iterations(1)
            ->UseRealTime()
            ->Unit(benchmark::kMillisecond);
    }
    for (int threads : {1, 2}) {
        const std::string name = "solve/data_problems/threads:" + std::to_string(threads);
        benchmark::RegisterBenchmark(name.c_str(), bm_solve, threads)
            ->Iterations(1)
            ->UseRealTime()
            ->Unit(benchmark::kMillisecond);
    }
    for (int threads : {1, 2}) {
        const std::string name = "parallel_perft/kiwipete/depth:5/threads:" + std::to_string(threads);
        benchmark::RegisterBenchmark(name.c_str(), bm_parallel, threads)
            ->Iterations(1)
            ->UseRealTime()
            ->Unit(benchmark::kMillisecond);
    }
}

// One summary line: leaves, wall time, speed and verdict of a measurement.
void print_measurement(const char* label, const std::optional<Measurement>& m) {
    if (!m) {
        std::printf("  %-22s not run\n", label);
        return;
    }
    if (!m->error.empty()) {
        std::printf("  %-22s FAILED: %s\n", label, m->error.c_str());
        return;
    }
    std::printf("  %-22s %11llu leaves %9.3f s %8.2f Mnodes/s  %s", label, static_cast<unsigned long long>(m->nodes),
                m->seconds, m->nodes_per_second() / 1e6, m->ok() ? "ok" : "MISMATCH");
    if (!m->ok()) std::printf(" (expected %llu)", static_cast<unsigned long long>(m->expected));
    std::printf("\n");
}

// Prints the plain summary and returns the number of failed or wrong runs.
int print_summary() {
    const Summary& s = summary();
    int failures = 0;
    const auto count = [&failures](const std::optional<Measurement>& m) {
        if (m && !m->ok()) ++failures;
    };

    std::printf("\n==== rebirth bench summary ====\n");
    std::printf("perft(%d) of the initial position, 1 thread, bulk counting\n", speed_depth);
    print_measurement("rebirth", s.rebirth_speed);
    print_measurement("stockfish", s.stockfish_speed);
    if (!s.stockfish_banner.empty()) std::printf("  (%s, start-up excluded)\n", s.stockfish_banner.c_str());
    if (s.rebirth_speed && s.stockfish_speed && s.rebirth_speed->ok() && s.stockfish_speed->ok()) {
        std::printf("  speed ratio rebirth/stockfish: %.3f\n",
                    s.rebirth_speed->nodes_per_second() / s.stockfish_speed->nodes_per_second());
    } else {
        std::printf("  speed ratio rebirth/stockfish: n/a\n");
    }
    count(s.rebirth_speed);
    // A Stockfish that is missing or disagrees only loses the ratio; rebirth's counts decide.
    if (s.stockfish_speed && !s.stockfish_speed->ok()) std::printf("  warning: Stockfish run unusable\n");

    std::printf("deep perft checks, 1 thread\n");
    for (const PerftCase& c : deep_cases) {
        const auto it = s.checks.find(c.name);
        const std::optional<Measurement> m =
            it == s.checks.end() ? std::nullopt : std::optional<Measurement>(it->second);
        const std::string label = std::string(c.name) + " depth " + std::to_string(c.depth);
        print_measurement(label.c_str(), m);
        count(m);
    }

    std::printf("parallel_perft, kiwipete depth %d\n", parallel_depth);
    for (int threads : {1, 2}) {
        const auto it = s.parallel.find(threads);
        const std::optional<Measurement> m =
            it == s.parallel.end() ? std::nullopt : std::optional<Measurement>(it->second);
        const std::string label = std::to_string(threads) + (threads == 1 ? " thread" : " threads");
        print_measurement(label.c_str(), m);
        count(m);
    }
    const auto one = s.parallel.find(1);
    const auto two = s.parallel.find(2);
    if (one != s.parallel.end() && two != s.parallel.end() && one->second.ok() && two->second.ok()) {
        std::printf("  speed-up 2 threads over 1: %.2f\n", one->second.seconds / two->second.seconds);
    } else {
        std::printf("  speed-up 2 threads over 1: n/a\n");
    }

    std::printf("perft under conditions, kiwipete depth %d, 1 thread (ratio to orthodox)\n", condition_depth);
    const auto orthodox = s.conditions.find("");
    for (const char* words : condition_words) {
        const auto it = s.conditions.find(words);
        const std::optional<Measurement> m =
            it == s.conditions.end() ? std::nullopt : std::optional<Measurement>(it->second);
        print_measurement(*words ? words : "orthodox", m);
        count(m);
        if (*words && m && m->ok() && orthodox != s.conditions.end() && orthodox->second.ok())
            std::printf("  %-22s ratio to orthodox: %.3f\n", "",
                        m->nodes_per_second() / orthodox->second.nodes_per_second());
    }

    std::printf("solving the %d published problems of data/problems\n", s.solve_problems);
    if (!s.solve_error.empty()) {
        std::printf("  FAILED: %s\n", s.solve_error.c_str());
        ++failures;
    }
    for (int threads : {1, 2})
        if (auto it = s.solve_seconds.find(threads); it != s.solve_seconds.end())
            std::printf("  %d thread%s %9.3f s\n", threads, threads == 1 ? " " : "s", it->second);
    if (s.solve_seconds.count(1) && s.solve_seconds.count(2)) {
        std::printf("  speed-up 2 threads over 1: %.2f\n", s.solve_seconds.at(1) / s.solve_seconds.at(2));
        const bool same = s.solve_output.at(1) == s.solve_output.at(2);
        std::printf("  outputs with 1 and 2 threads identical: %s\n", same ? "yes" : "NO");
        if (!same) ++failures;
    }

    if (failures == 0) {
        std::printf("result: every perft count that ran matches\n");
    } else {
        std::printf("result: %d FAILED OR MISMATCHED RUN%s (see above)\n", failures, failures == 1 ? "" : "S");
    }
    return failures;
}

}  // namespace
}  // namespace rebirth

int main(int argc, char** argv) {
    std::signal(SIGPIPE, SIG_IGN);  // a dead Stockfish must not kill the benchmark
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
    rebirth::register_benchmarks();
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return rebirth::print_summary() == 0 ? 0 : 1;
}
