#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "rebirth/claims.h"
#include "rebirth/cluster/job.h"
#include "rebirth/cluster/messages.h"
#include "rebirth/position.h"
#include "rebirth/problem.h"
#include "rebirth/proof_split.h"
#include "rebirth/rules.h"
#include "rebirth/solve.h"
#include "rebirth/unmove.h"

namespace rebirth::cluster {

// Compact text of a path move: "e2e4", with ":k<kind>", ":p<walk>", ":r<square>",
// ":w<walk>", ":x<square>", ":s<n>" for fields that differ from their defaults and
// ":o<n>" for the n-th repetition of an identical move ("e1g1:k3:o1" is the second copy).
std::string move_token(const PathMove& m);
// Inverse of move_token; throws std::invalid_argument on a malformed or non-canonical
// token (so each path has exactly one key).
PathMove parse_move_token(std::string_view token);
// Tokens joined by single spaces ("" for the root) and back.
std::string path_key(const Path& path);
Path parse_path_key(std::string_view key);

// A line or tree of solve play (solution.h) as the journal keeps it: "twin/play/side" ("w" or
// "b"; "s" after it for set play, then "@N" for a line whose main play starts at move N after
// introductory moves) followed by its moves' tokens ("pass" for a null move), or its nodes in
// flatten_tree order, each "depth.kind.goal.then/token". The parsers throw
// std::invalid_argument on malformed text or a tree whose depths do not nest.
std::string play_line_key(const PlayLine& line);
PlayLine parse_play_line_key(std::string_view key);
std::string play_tree_key(const PlayTree& tree);
PlayTree parse_play_tree_key(std::string_view key);

// A retro item's data as the journal keeps it. An un-move: its move's token, then, after a
// "/", each of its other fields that is not at its default as a letter and a number, in
// order, joined by dots ("d2e1/a3.b7": a rook (walk 3) uncaptured, reborn on h1, square 7;
// a uncaptured walk, b un-reborn square, c
// capturer's square, d-f the resurrected unit's walk, side and flags, g-i the capturer
// before, j whether it was lost, k rook square, l uncaptured flags, m-q Parrain square, unit
// and rebirth square; squares as numbers, 64 none). A sequence: its un-moves' tokens joined
// by blanks. A retractor's tree: its steps in flatten_steps order
// joined by blanks, each "depth.side.value.timed~UNMOVE~FORWARD" (side w or b; value W, F or U;
// the forward moves' tokens joined by commas). The parsers throw std::invalid_argument on
// malformed or non-canonical text or a tree whose depths do not nest.
std::string unmove_token(const UnMove& u);
UnMove parse_unmove_token(std::string_view token);
std::string retro_sequence_key(const std::vector<UnMove>& sequence);
std::vector<UnMove> parse_retro_sequence_key(std::string_view key);
std::string retractor_step_key(const RetractorStep& step);
RetractorStep parse_retractor_step_key(std::string_view key);

// A problem's diagram ready to play: the rule set lives here, so keep the value in place
// (positions point at the rules).
struct LoadedProblem {
    std::unique_ptr<RuleSet> rules;
    Position root;
    std::uint64_t file_hash = 0;
};

// Builds the diagram of problem `index` (1-based) of a Popeye file under its conditions,
// exactly as `rebirth perft FILE --problem K` does. Throws InputError on bad input.
LoadedProblem load_problem(const std::string& file, int index);

// The legal moves of `pos` in generation order, each with its occurrence among identical
// moves (so the entries are distinct).
std::vector<PathMove> legal_path_moves(const Position& pos);

// Plays `path` from `pos`, checking each move is legal there and its occurrence exists.
// Throws std::runtime_error naming the first move that is not.
void replay(Position& pos, const Path& path);

// The legal first moves in generation order with their Popeye names (as perft --divide).
std::vector<std::pair<Path, std::string>> root_moves(const Position& root);

// Splits the perft tree of `root` to `depth` into items (paths, each with at least one
// move): every first move, then the item with the largest estimated subtree expanded into
// its children, until there are `target` items or nothing with more than `min_left` plies
// left. Items come out largest estimate first. Deterministic.
std::vector<Path> initial_split(const Position& root, int depth, int target, int min_left = 3);

// Parsed problems of a worker, by file and index; checks the file hash of each item.
// Safe to share between threads (entries are never removed, so references stay valid).
class ProblemCache {
  public:
    const LoadedProblem& get(const WorkItem& item);
    // The parsed problem (twins included) of a solve item. Throws InputError on bad input.
    const Problem& problem(const WorkItem& item);
    // The twin of a proof-game item, set up once per file, problem and twin, its searches
    // sharing their failure facts; the kProofSolvers used last are kept (a solver in use stays
    // alive with its caller). Throws as ProofTwinSolver.
    std::shared_ptr<const ProofTwinSolver> proof_solver(const WorkItem& item);
    static constexpr std::size_t kProofSolvers = 4;
    // The prefixes of a retro item's side (retro_side_prefixes), worked out once for the
    // items of that side (file, problem, twin, side, prefix length); the kRetroSides used
    // last are kept. Throws as retro_side_prefixes.
    std::shared_ptr<const std::vector<std::vector<UnMove>>> retro_prefixes(const WorkItem& item);
    static constexpr std::size_t kRetroSides = 8;
    // The claimed problem of a cook-check item (read_claims of its file, read once). Throws
    // std::runtime_error when the file differs from the master's or has no such problem.
    const ClaimedProblem& claim(const WorkItem& item);

  private:
    struct ParsedFile {
        std::uint64_t hash = 0;
        std::vector<Problem> problems;
    };
    std::mutex mutex_;
    std::map<std::pair<std::string, int>, LoadedProblem> loaded_;
    std::map<std::string, ParsedFile> parsed_;
    struct ClaimsFile {
        std::uint64_t hash = 0;
        std::vector<ClaimedProblem> claims;
    };
    std::map<std::string, ClaimsFile> claims_;
    using ProofKey = std::tuple<std::string, int, int>;                             // file, problem, twin
    std::list<std::pair<ProofKey, std::shared_ptr<const ProofTwinSolver>>> proof_;  // latest first
    using RetroKey = std::tuple<std::string, int, int, int, int>;                   // file, problem, twin, side, k
    std::list<std::pair<RetroKey, std::shared_ptr<const std::vector<std::vector<UnMove>>>>> retro_;  // latest first
};

// Problem `p` solved whole (status Solved) with its summary: its twins' solutions as data
// (SolveReport::outputs; a retro problem: solve_whole_retro's fragments), or its input error
// ("bad-input", `error` the message).
Result solve_one(const Problem& p, int threads, double max_seconds);

// The output of `rebirth solve --regression --quiet` for problem `p` alone (its time limit
// `max_seconds`) rendered from a worker's solve_one result: header and solutions, or header
// and the input error as that command prints it; `status` and `solutions` (when given) get
// the summary that follows from it. Throws std::invalid_argument when the data does not fit
// `p` (render_solve_report, assemble_retro), or InputError when `p` is not playable.
std::string whole_problem_text(const Problem& p, const Result& r, double max_seconds, std::string* status = nullptr,
                               int* solutions = nullptr);

// The journal key of a root item of a split solve problem: "TWIN.PHASE/TOKEN" ("0.1/e2e4",
// "1.0/e1g1:k3:o1"), and the one-move path naming its root move; a reply share of one
// (solve_replies) has the two-move path and key ("0.1/e2e4 e7e5").
std::string solve_item_key(const SolveRootItem& item);
Path solve_item_path(const SolveRootItem& item);

// The text of one root item of a solve problem (Result::Status::Fragment): the item of
// plan_solve(p) with the work item's twin, phase and root move, or the reply share named
// by a two-move path. A root item with a budget searches its replies in parallel and hands
// back those not started when the budget is spent (Status::Split: `pending` lists every
// reply in order, `fragments` holds those searched). Throws std::runtime_error when the problem has no such item.
Result solve_root_item(const Problem& p, const WorkItem& item);

// A path of the moves of `line` (occurrences 0) and the moves of a path.
Path path_of(const MoveLine& line);
MoveLine moves_of(const Path& path);

// The journal keys of the items of a proof-game problem split at its frontier
// (plan_proof_games): "TWIN.PLAY/kDEPTH" for the start item of a play (the lengths up to
// DEPTH from the play's start; "0.0/k2"), and "TWIN.PLAY/PATH" for a frontier node, PATH the
// path_key of its first prefix ("0.0/g1f3 g8f6").
std::string proof_start_key(int twin, int play, int depth);
std::string proof_node_key(int twin, int play, const MoveLine& first_prefix);
// The depth of a start item key, or -1 when `key` is none (then `twin` and `play` are unset).
int proof_start_depth(const std::string& key, int& twin, int& play);

// The answer to a proof-game item (Status::Proof): the suffixes of its play, path and
// lengths in `twin` (the item's twin), with the item's threads and time limit. Throws
// std::invalid_argument when the item does not fit the twin.
Result solve_proof_item(const ProofTwinSolver& twin, const WorkItem& item);

// The answer to a cook-check item (Status::Solved): checked_claim (verify.h) of its claimed
// problem as one JSON line, its verdict and the number of solutions found.
Result check_claim_item(const WorkItem& item, ProblemCache& cache);

// Searches one item (the worker's job). Perft items with more than kSplitFloor plies left
// and a budget go child by child and hand back the children left once the budget is
// spent; solve items solve the whole problem (Status::Solved) or one root move of it
// (Status::Fragment, a one-move path); proof-game items answer Status::Proof; noop items
// return at once.
// Errors (bad file, illegal path) come back as Result::Status::Error.
Result run_item(const WorkItem& item, ProblemCache& cache);
inline constexpr int kSplitFloor = 4;

// A worker's items in flight: each submitted item runs (run_item) on a thread of its own,
// started when no pool thread is free and kept for later items; finished results are
// collected by the caller (the worker's main thread, the only one calling MPI). Each
// item's search still uses its own TBB arena inside.
class ItemPool {
  public:
    explicit ItemPool(ProblemCache& cache) : cache_(cache) {}
    // Lets the running items finish, then joins the pool threads.
    ~ItemPool();
    ItemPool(const ItemPool&) = delete;
    ItemPool& operator=(const ItemPool&) = delete;

    void submit(WorkItem item);
    // The results finished so far; when there are none and items are in flight, waits up
    // to `timeout` for one.
    std::vector<Result> take(std::chrono::microseconds timeout);
    // Items submitted whose results have not been taken yet.
    int in_flight() const { return in_flight_; }

  private:
    void loop();
    ProblemCache& cache_;
    std::mutex mutex_;
    std::condition_variable work_ready_;
    std::condition_variable result_ready_;
    std::deque<WorkItem> work_;
    std::vector<Result> done_;
    std::vector<std::thread> threads_;
    std::size_t running_ = 0;
    int in_flight_ = 0;  // touched by the caller's thread only
    bool stop_ = false;
};

}  // namespace rebirth::cluster
