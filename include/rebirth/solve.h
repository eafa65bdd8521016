#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "rebirth/move.h"
#include "rebirth/problem.h"
#include "rebirth/solution.h"

namespace rebirth {

// Limits on solving one problem.
struct SolveLimits {
    double max_seconds = 0;  // 0: no time limit (--maxtime)
    bool show_time = false;  // append Popeye's " Time = ..." to the closing line (not in -regression mode)
};

// What one twin of a problem found, as data: everything Popeye's text of the twin shows that
// a search decided (render_solve_report writes the text from it, checking every move).
struct TwinOutput {
    // Help and series play: every line in output order (set play's marked; PlayLine::play the
    // run: set play, actual play, the halves of a duplex). Proof games: every game as
    // SolveReport::proof_games has it.
    std::vector<PlayLine> lines;
    // Battle play: per play in order, its set play or post-key play (root kinds SetPlay,
    // PostKey, without a move), then the keys and tries shown, each with the play below it.
    std::vector<PlayTree> trees;
    bool supported = true;   // a solver handles the stipulation (else the text says so)
    bool timed_out = false;  // the time limit stopped the search in this twin (it shows nothing)
    bool partial = false;    // MaxSolutions or StopOnShortSolutions cut one of its plays
    bool last_cut = false;   // ... its last play (which then lacks its closing blank line)
    friend bool operator==(const TwinOutput&, const TwinOutput&) = default;
};

// What solving one problem produced: Popeye's text, the solutions as data, and a summary for
// --json.
struct SolveReport {
    std::string text;                 // everything after the header (as solve_problem)
    bool supported = true;            // every twin's stipulation has a solver
    bool partial = false;             // MaxSolutions / StopOnShortSolutions cut the search
    bool timed_out = false;           // the time limit stopped the search
    int solutions = 0;                // keys of direct play, lines of help/series play and proof games
    std::vector<int> twin_solutions;  // the same per twin (a), b), ...)
    std::uint64_t nodes = 0;          // positions searched
    double seconds = 0;
    // Facts proved without search, e.g. "a) White to move: the target cannot be reached: white
    // pawn on h1" (a proof game whose diagram no game reaches).
    std::vector<std::string> notes;
    // The solutions found, as data, in output order: proof games (also from assemble_proof_games),
    // the lines of help and series play (with those of set play, marked set_play), the keys of
    // battle play (their PlayLine holds the key alone; tries are not keys). solve_problem_report only for the last two:
    // assemble_solve joins text.
    std::vector<PlayLine> proof_games;
    std::vector<PlayLine> lines;
    std::vector<PlayLine> keys;
    // Battle play: each key and try written, with the threats, variations and refutations
    // written below it (Option Variation; else the key or try alone), in output order
    // (solve_problem_report only).
    std::vector<PlayTree> trees;
    // Every twin searched, as data (solve_problem_report only): the text is rendered from them.
    // A twin the time limit stopped is the last.
    std::vector<TwinOutput> outputs;
    // "solved", "cooked", "no-solution", "timeout", "partial" or "unsupported".
    std::string status() const;
};

// Sets `report`'s text (as solve_problem_report writes it after the header) and the fields
// that follow from report.outputs (supported, partial, timed_out, twin_solutions, solutions,
// and the solutions as data: proof_games, lines, keys, trees, numbered by twin) from
// report.outputs alone, with the closing line (with report.seconds when limits.show_time).
// Throws std::invalid_argument when the outputs do not fit `p` (more twins than it has, a line
// or tree of a play a twin does not have, with `check` a move that is not legal where it is
// played: outputs from another process), and InputError as solve_problem_report when a twin
// is not playable. solve_problem_report renders its own outputs without `check`.
void render_solve_report(const Problem& p, SolveReport& report, const SolveLimits& limits, bool check = true);

// Solves every twin of `p` (see solve_problem) within `limits`; `nodes` (when given) counts
// the positions searched as the search goes, for a progress display.
// `root_done` / `root_total` (when given) show how many root moves of the current play are
// searched.
SolveReport solve_problem_report(const Problem& p, int threads, const SolveLimits& limits,
                                 std::atomic<std::uint64_t>* nodes = nullptr, std::atomic<int>* root_done = nullptr,
                                 std::atomic<int>* root_total = nullptr);

// The proof games of `report` (solve_problem_report(p, ...)) in PGN, one game each in
// output order (pgn.h): the Seven Tag Roster (Event: the origin; Round: the game's number in
// the problem), then Composer, Stipulation, Condition and Twin when the problem has them,
// SetUp and FEN when play does not start from the game array with White to move, and
// PlyCount. Throws InputError when a twin is not playable (solve_problem_report threw it).
std::string proof_games_pgn(const Problem& p, const SolveReport& report);

// Everything Popeye prints after the header (format_header) for one problem: for each twin
// its twin line, the solution lines with Popeye's blank lines, then "solution finished."
// (or "Partial solution" when MaxSolutions/StopOnShortSolutions cut the search), in the
// problem's language. A twin whose stipulation no solver handles gets one line saying so;
// *all_supported (when given) is then set to false. Throws InputError (naming the
// problem's file and line) when the conditions or the diagram are not playable.
std::string solve_problem(const Problem& p, int threads = 0, bool* all_supported = nullptr);

// Solving one problem split by root moves, so the shares can be searched apart (on other
// processes) and put together again: plan_solve lists the root items, solve_fragment
// computes one, assemble_solve joins them. assemble_solve(p, plan, fragments, limits).text
// equals solve_problem_report(p, ...).text for every splittable problem (time limits
// apart: each fragment has its own).

// One root move of one play (phase) of one twin.
struct SolveRootItem {
    int twin = 0;        // index of the twin (0 = a), or of the problem itself without twins)
    int phase = 0;       // set play, actual play, the halves of a duplex, in output order
    int root = 0;        // index of the move in the phase's root moves (the solver's order)
    Move move;           // that move
    int occurrence = 0;  // identical moves before it in the phase's root moves
    // A share of a root item (solve_replies): its lines after reply number `reply` (-1: the
    // whole root item), that reply, and the identical replies before it.
    int reply = -1;
    Move reply_move;
    int reply_occurrence = 0;
};

// How a problem splits: per twin its twin line and phases, and the items in output order.
struct SolvePlan {
    bool splittable = false;
    std::string reason;  // why not, when not splittable
    struct Phase {
        bool blocked = false;  // the opponent of the first mover is in check: no play
        int lengths = 1;       // parts per fragment (lengths of help/series play)
        int first_item = 0;    // index of the phase's first item in `items`
        int roots = 0;         // its number of items
    };
    struct Twin {
        std::string line;  // Popeye's twin line ("" for a problem without twins)
        std::vector<Phase> phases;
    };
    std::vector<Twin> twins;
    std::vector<SolveRootItem> items;
};

// The solutions of one item as data, and what searching it cost. Help and series play:
// per length of its play (shortest first), the lines found, moves from the play's start.
// Battle play: the key or try of its root move with the play below it, or none when the
// move is neither. assemble_solve renders them as Popeye's text.
struct SolveFragment {
    std::vector<std::vector<PlayLine>> lines;
    std::vector<PlayTree> trees;
    std::uint64_t nodes = 0;
    double seconds = 0;
    bool timed_out = false;  // the time limit stopped it (lines and trees are then empty)
    // MaxSolutions stopped its play (proof games): the report is partial, and the play's
    // text has no closing blank line when it is its twin's last.
    bool stopped = false;
};

// The root items of `p`; not splittable (and no items) for proof games, intro moves,
// MaxSolutions, StopOnShortSolutions, set play of battle play, unsupported stipulations
// and conditions or diagrams that are not playable.
SolvePlan plan_solve(const Problem& p);
// Searches item `item` of plan_solve(p) (or one of its solve_replies) alone, with
// `limits.max_seconds` as its own limit.
SolveFragment solve_fragment(const Problem& p, const SolveRootItem& item, int threads, const SolveLimits& limits);
// The shares root item `item` of plan_solve(p) splits into, one per reply to its root move
// in output order, when its text is theirs joined (plain help play); none otherwise.
std::vector<SolveRootItem> solve_replies(const Problem& p, const SolveRootItem& item);
// The fragment of a root item from the fragments of its replies (solve_replies order).
SolveFragment join_fragments(const std::vector<SolveFragment>& replies);
// Popeye's text of item `item` of plan_solve(p) (or of one of its solve_replies) from its
// fragment: one part per length of its play. Throws std::invalid_argument when the fragment
// does not fit the item (another number of lengths, a line or tree of another play, a move
// that is not legal where it is played), as data from another process may not.
std::vector<std::string> fragment_text(const Problem& p, const SolveRootItem& item, const SolveFragment& fragment);

// solve_fragment with a budget: a root item that splits into replies has them searched in
// parallel; replies not started once `budget_seconds` have passed (the first one always
// is) are left. `complete`: all were searched and `whole` is the item's fragment; else
// `done` holds the replies searched (with their fragments) and `pending` the others.
struct SolveBudgetResult {
    bool complete = true;
    SolveFragment whole;
    std::vector<std::pair<SolveRootItem, SolveFragment>> done;
    std::vector<SolveRootItem> pending;
};
SolveBudgetResult solve_fragment_budget(const Problem& p, const SolveRootItem& item, int threads,
                                        const SolveLimits& limits, double budget_seconds);

// The report solve_problem_report gives for `p`, from the fragments of every item of
// `plan` (same order). A timed-out fragment ends the text as a time limit would.
SolveReport assemble_solve(const Problem& p, const SolvePlan& plan, const std::vector<SolveFragment>& fragments,
                           const SolveLimits& limits);

}  // namespace rebirth
