#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "rebirth/move.h"
#include "rebirth/problem.h"
#include "rebirth/solve.h"

namespace rebirth {

// Solving a proof-game problem (dia..., a=>b...) split at a frontier, so that the shares can
// be searched apart (on other processes) and put together again. Each play (phase) of each
// twin is cut after `depth` half-moves: one start item searches the lengths up to `depth`
// from the play's start; every distinct position after `depth` half-moves (a frontier node)
// is one item that searches the longer lengths from there and returns the solutions as
// moves after the node's position (suffixes), which hold for every prefix that reaches it.
// assemble_proof_games writes each length's lines prefix by prefix in generation order, as
// solve_proof_game does, so assemble_proof_games(p, plan, results).text equals
// solve_problem_report(p, ...).text, and its proof_games theirs (time limits apart: each
// item has its own).
//
// MaxSolutions n counts each play's lines (shortest length first) and stops its search at the
// n-th. Each item then searches in Popeye's order and returns its first n lines at most, its
// lengths counted together: an item's lines of a length can only be among the play's first n
// when the item has fewer than n lines of the shorter lengths, since each of them gives the
// play one line at least. The items are needed in plan order (the start item, then the nodes
// in the order of their first prefixes), and proof_play_items_needed tells, from the results
// known so far, when the play's first n lines are known: the items after them need no search.
// Every length's lines come before the next length's, so when the n-th line is of a longer
// length than the nodes' shortest, every node is needed (for its lines of the shorter ones).

using MoveLine = std::vector<Move>;

// One position of a play's frontier: every prefix (half-moves from the play's start) that
// reaches it, in generation order (Popeye's move order at each step); the first names it.
struct ProofFrontierNode {
    std::vector<MoveLine> prefixes;
};

// One play (phase) of a proof-game twin.
struct ProofPlayPlan {
    bool blocked = false;                    // writes only its empty line; no items
    std::vector<int> lengths;                // the lengths searched, shortest first
    int depth = 0;                           // the start item searches the lengths <= depth, the nodes the others
    std::vector<ProofFrontierNode> nodes;    // in the order of their first prefixes
    std::vector<std::pair<int, int>> order;  // every prefix in generation order: (node, index)
    int max_lines = 0;                       // MaxSolutions: the play stops at its max_lines-th line (0: none)

    // The lengths of the start item (<= depth) or of a frontier node's item (> depth).
    std::vector<int> item_lengths(bool start) const;
};

struct ProofTwinPlan {
    std::string line;  // Popeye's twin line ("" for a problem without twins)
    std::vector<ProofPlayPlan> plays;
};

// How a proof-game problem splits: per twin its plays; `splittable` false (and why in
// `reason`) when a twin is no proof game the solver handles or the problem is not playable.
struct ProofGamePlan {
    bool splittable = false;
    std::string reason;
    std::vector<ProofTwinPlan> twins;
};

struct ProofSplitOptions {
    // Per play: the depth (from 1, below the play's longest length, at most `max_depth`,
    // with at most `max_prefixes` prefixes) whose frontier's number of nodes is nearest this
    // target (as a ratio either way; the shallower on a tie). Deeper frontiers cost more in
    // all: the items do not share the solver's failure tables.
    int target_nodes = 32;
    int max_depth = 4;
    std::size_t max_prefixes = 200000;
    // Fixed depths by (twin, play), as an earlier plan chose them (a resumed run): they
    // replace the choice above for those plays.
    std::map<std::pair<int, int>, int> depths;
};

// The plan of `p`: deterministic for the same problem and options.
ProofGamePlan plan_proof_games(const Problem& p, const ProofSplitOptions& options);

// What one item found: per length of its item_lengths, the solutions as the moves after the
// item's position (for the start item: whole lines), in the order solve_proof_game writes them;
// with MaxSolutions n only the first n of them, the lengths counted together (the lengths after
// the n-th line have none).
struct ProofSuffixes {
    std::vector<std::vector<MoveLine>> lines;
    std::uint64_t nodes = 0;
    double seconds = 0;
    bool timed_out = false;  // the time limit stopped it (lines are then empty)
    friend bool operator==(const ProofSuffixes&, const ProofSuffixes&) = default;
};

// One twin of a proof-game problem (twins numbered as plan_proof_games lists them) set up
// for searching and writing its lines: the set-up (rules, bounds) is done once, and the
// searches of each play share their failure facts (positions from which no line goes on),
// so later items of a play search less; the lines found do not depend on them. Its const
// functions may be called from several threads at once. Throws std::invalid_argument for no
// such twin or a twin that is no proof game the solver handles, InputError when the twin
// is not playable. In a series proof game (ser-dia, ser-a=>b) lengths, depths, prefixes and
// suffixes count the series side's moves alone (the other side passes after each).
class ProofTwinSolver {
  public:
    ProofTwinSolver(const Problem& p, int twin);
    ~ProofTwinSolver();
    ProofTwinSolver(const ProofTwinSolver&) = delete;
    ProofTwinSolver& operator=(const ProofTwinSolver&) = delete;

    // The number of plays (phases) of the twin.
    int plays() const;
    // The side that makes the first half-move of play `play`. Throws std::invalid_argument
    // for no such play.
    Color first(int play) const;

    // The solutions of play `play` that begin with `prefix` (half-moves from the play's start
    // position: the game array for dia, position a for a=>b), for each of `lengths` (lengths
    // the play searches, each longer than the prefix), as the moves after the prefix in the
    // order solve_proof_game writes them. Searches on `threads` (0 = all cores) with
    // `limits.max_seconds` as its own time limit. With the twin's MaxSolutions n it searches
    // one thread in Popeye's order and stops at the n-th line, `lengths` (shortest first)
    // counted together: the lengths after it get no lines. Throws std::invalid_argument for no
    // such play, a length it does not search or not longer than the prefix, or an illegal
    // prefix.
    ProofSuffixes suffixes(int play, const MoveLine& prefix, const std::vector<int>& lengths, int threads,
                           const SolveLimits& limits) const;

    // The text solve_proof_game writes for the line prefix + suffix of play `play`, in
    // Popeye's notation: "\n  1.e2-e4 e7-e5   2.Sg1-f3 dia" (move numbers counted from the
    // play's first side, " a=>b" for a=>b). Throws std::invalid_argument when a move is not
    // legal in its position.
    std::string line(int play, const MoveLine& prefix, const MoveLine& suffix) const;

    // The game prefix + suffix of play `play` as SolveReport::proof_games holds it: in series
    // play with the other side's passes (null moves) between the moves.
    MoveLine game(int play, const MoveLine& prefix, const MoveLine& suffix) const;

    // Whether the search of play `play` keeps `line`, a legal game of half-moves from the
    // play's start whose last move reaches the diagram: the search of the line's length,
    // restricted to the line's moves but with every bound and move filter of the full search
    // at each of its positions, finds it. False means the full search would miss that game
    // (or the line does not end on the diagram). A soundness check of the bounds on games far
    // longer than the full search can take. Throws std::invalid_argument for no such play or
    // an illegal or empty line.
    bool keeps_line(int play, const MoveLine& line) const;

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// ProofTwinSolver(p, twin).suffixes(play, prefix, lengths, threads, limits).
ProofSuffixes solve_proof_suffixes(const Problem& p, int twin, int play, const MoveLine& prefix,
                                   const std::vector<int>& lengths, int threads, const SolveLimits& limits);

// The results of one play: its start item's and one per frontier node (plan order).
struct ProofPlayResults {
    ProofSuffixes start;
    std::vector<ProofSuffixes> nodes;
};

// What proof_play_items_needed knows of one item's result: its number of lines per length of
// its item_lengths (none when it timed out).
struct ProofItemTally {
    bool timed_out = false;
    std::vector<std::size_t> lines;
};

// The tally of `s`.
ProofItemTally tally_of(const ProofSuffixes& s);

// How many items of `play`, in plan order (0: the start item, 1 + i: frontier node i), make
// its text, when the results known so far (`items`, one per item, empty when not in yet) tell:
// without max_lines every item, once all are in; with it the items up to the one whose lines
// complete the play's first max_lines lines, or up to a timed-out item reached before them
// (the play is cut), or every item when all are in and the play has fewer lines. Nothing while
// an item before that point is not in. Deterministic: the same for any results of the items
// after that point. Throws std::logic_error when `items` or a result reached does not fit
// the plan.
std::optional<std::size_t> proof_play_items_needed(const ProofPlayPlan& play,
                                                   const std::vector<std::optional<ProofItemTally>>& items);

// The report solve_problem_report gives for `p` from the results of every item of `plan`
// (results[twin][play]; blocked plays have none). A timed-out item ends its twin's text as a
// time limit would. With MaxSolutions only the items proof_play_items_needed names count: the
// results of the others are ignored (they may be left empty) and the play's text ends at its
// max_lines-th line, the report then partial. Throws std::logic_error when the results do not
// fit the plan, and std::invalid_argument when a line is not legal.
SolveReport assemble_proof_games(const Problem& p, const ProofGamePlan& plan,
                                 const std::vector<std::vector<ProofPlayResults>>& results, const SolveLimits& limits);

}  // namespace rebirth
