#pragma once

#include <chrono>
#include <optional>

// Internal interface between the problem solver front end (solve.cpp) and the solvers of
// each family of stipulations. Not a public header.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "rebirth/goal.h"
#include "rebirth/popeye_output.h"
#include "rebirth/position.h"
#include "rebirth/problem.h"
#include "rebirth/rules.h"
#include "rebirth/solve.h"

namespace rebirth {

// Thrown by SearchControl::visit when the time limit has passed; the front end reports the
// problem as timed out.
struct SearchStopped {};

// Node counting and the time limit of one problem, shared by the threads of its search.
// The time `seconds` after `start`.
inline std::chrono::steady_clock::time_point time_after(std::chrono::steady_clock::time_point start, double seconds) {
    return start +
           std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(seconds));
}

struct SearchControl {
    std::atomic<std::uint64_t>* nodes = nullptr;  // progress counter (read by a heartbeat)
    std::chrono::steady_clock::time_point deadline{};
    bool has_deadline = false;
    std::atomic<bool> stopped{false};
    // Root moves of the current play finished / in all (progress display); may be null.
    std::atomic<int>* root_done = nullptr;
    std::atomic<int>* root_total = nullptr;

    // A play with `total` root moves starts.
    void start_root(int total) {
        if (root_total) root_total->store(total, std::memory_order_relaxed);
        if (root_done) root_done->store(0, std::memory_order_relaxed);
    }
    // One more root move has been searched.
    void root_move_done() {
        if (root_done) root_done->fetch_add(1, std::memory_order_relaxed);
    }

    // Stops the search `max_seconds` after `start` (no limit when 0).
    void set_time_limit(std::chrono::steady_clock::time_point start, double max_seconds) {
        has_deadline = max_seconds > 0;
        if (has_deadline) deadline = time_after(start, max_seconds);
    }

    // Counts one node; throws SearchStopped once the deadline has passed.
    void visit() {
        const std::uint64_t n = nodes ? nodes->fetch_add(1, std::memory_order_relaxed) : 0;
        if (has_deadline && (n & 1023) == 0 && std::chrono::steady_clock::now() > deadline)
            stopped.store(true, std::memory_order_relaxed);
        if (stopped.load(std::memory_order_relaxed)) throw SearchStopped{};
    }
};

// One problem (one twin) ready to solve: its resolved rules and its playable diagram.
struct SolveContext {
    const Problem& problem;   // the twin's problem value (stipulation, options, language)
    const RuleSet& rules;     // resolved conditions; positions point to it
    const Position& initial;  // the diagram, side to move from the stipulation
    Goal goal;                // the stipulation's goal
    int threads = 0;          // 0 = all cores
    // Set to true by a solver when MaxSolutions or StopOnShortSolutions cut its search; its
    // output then ends without the closing blank line of the last phase, and the front end
    // prints "Partial solution" instead of "solution finished.". May be null.
    bool* partial = nullptr;
    // Node counting and time limit; may be null.
    SearchControl* control = nullptr;
    // Facts proved without search (why a twin has no solution, e.g. an unreachable target);
    // may be null.
    std::vector<std::string>* notes = nullptr;
    // What the solver found, as data (TwinOutput: the lines of help, series and proof play,
    // battle play's trees, whether its last play was cut), twin 0 (the caller numbers the
    // twins); may be null.
    TwinOutput* output = nullptr;
    // Renderers (render_help_or_series, render_direct, render_proof_game, help_lines_text,
    // direct_tree_text): check every move of the data they write (data from elsewhere), or
    // trust it (the solver's own, just found).
    bool check = true;

    void visit() const {
        if (control) control->visit();
    }
};

// Whether twin `tw` is a proof game (dia..., a=>b...).
bool is_proof(const Problem& tw);

// A twin's resolved rules and playable diagram (positions point at `rules`: keep in place).
struct TwinSetup {
    RuleSet rules;
    Position pos;
};

// Resolves the conditions of twin `tw` (already applied) and sets up the position play
// starts from (proof games: proof_start_setup). Throws InputError naming the twin's file
// and line.
std::unique_ptr<TwinSetup> load_twin(const Problem& tw);

// A solve context on twin `tw` loaded as `setup` (its stipulation's goal, one thread, no
// limits, nothing collected): for splitting, rendering and checking. Keeps references to both.
inline SolveContext twin_context(const Problem& tw, const TwinSetup& setup) {
    return SolveContext{tw, setup.rules, setup.pos, goal_from_text(tw.stipulation.goal), 1, nullptr, nullptr};
}

// The position a twin's play starts from with `first` to move (proof games: the game array or
// position a; else the diagram), loaded afresh from `setup` under its rules and the twin's
// king options.
Position play_start(const TwinSetup& setup, Color first, const Problem& tw);

// The twins solve_problem_report solves, in order: each applied twin with its twin line
// ("" for a problem without twins, which is solved as it is).
std::vector<std::pair<Problem, std::string>> twins_of(const Problem& p);

// One timed search in twin `tw`: its node counter, the time limit of `limits` counted from
// construction, the loaded twin and a solve context on it. Not copyable: the context points
// into it.
struct TwinRun {
    TwinRun(const Problem& tw, int threads, const SolveLimits& limits)
        : start(std::chrono::steady_clock::now()),
          setup(load_twin(tw)),
          ctx{tw, setup->rules, setup->pos, goal_from_text(tw.stipulation.goal), threads, &partial, &control} {
        control.nodes = &nodes;
        control.set_time_limit(start, limits.max_seconds);
    }
    TwinRun(const TwinRun&) = delete;
    TwinRun& operator=(const TwinRun&) = delete;

    // Seconds since construction.
    double seconds() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); }

    std::atomic<std::uint64_t> nodes{0};
    SearchControl control;
    bool partial = false;
    const std::chrono::steady_clock::time_point start;
    const std::unique_ptr<TwinSetup> setup;
    SolveContext ctx;
};

// assemble_solve on the twins of a plan: each phase's text from its fragments
// (fragments[first_item .. first_item + roots)) and their texts (texts[i]: fragment i's,
// one per length of its play), twin lines, closing line and counts as
// solve_problem_report gives them. Throws std::logic_error when they do not fit.
SolveReport assemble_twins(const Problem& p, const std::vector<SolvePlan::Twin>& twins,
                           const std::vector<SolveFragment>& fragments,
                           const std::vector<std::vector<std::string>>& texts, const SolveLimits& limits);

// A move that reaches the play's goal, with its text in the problem's language (no marks) and
// whether it gives check.
struct GoalMove {
    Move move;
    std::string text;
    bool check = false;
};
// The moves of the side to move in `pos` that reach goal g, in Popeye's order.
std::vector<GoalMove> goal_moves(const Position& pos, Goal g, Language lang);

// Whether Popeye generates the moves of `pos` that are to reach goal g with its mating-move
// generator, and so in the order of popeye_ordered_final_moves (mate and check goals).
bool final_move_order(const Position& pos, Goal g);

// Each solves the twin, putting what it finds into *ctx.output, and returns true, or returns
// false when it does not handle the stipulation.
bool solve_help_or_series(const SolveContext& ctx);  // h..., ser-...
bool solve_direct(const SolveContext& ctx);          // #n, =n, s#n, r#n, ...
// Proof games (src/solve_proof.cpp): dian, dian.5 from the game array and a=>bn from position
// a, to the diagram's units (Problem::setup.board); ctx.initial must be the position play
// starts from, proof_start_setup(problem), loaded with the problem's rules.
bool solve_proof_game(const SolveContext& ctx);  // dia..., a=>b...

// The renderers of what those solvers found: each writes Popeye's solution lines for the
// twin from `found` into `out` (exactly as Popeye prints them between the header/twin line and
// "solution finished.") and returns true, or returns false without writing when the
// stipulation is not its. Throws std::invalid_argument when `found` does not fit the twin (a
// line or tree of a play it does not have, a move that is not legal where it is played).
bool render_help_or_series(const SolveContext& ctx, const TwinOutput& found, std::string& out);
bool render_direct(const SolveContext& ctx, const TwinOutput& found, std::string& out);
bool render_proof_game(const SolveContext& ctx, const TwinOutput& found, std::string& out);

// One play (phase) of a twin split by root moves: `blocked` plays write only an empty
// line; otherwise the play's text is, for each of its `lengths` lengths, the parts of its
// root moves in `moves` order, followed by an empty line.
struct SplitPhase {
    bool blocked = false;
    int lengths = 1;
    std::vector<Move> moves;  // root moves in the order the solver searches them
};

// The phases of a help/series (split_help) or battle play (split_direct) twin as
// solve_help_or_series / solve_direct would write them; false (phases untouched) when the
// stipulation is not theirs or its options make root moves depend on each other
// (MaxSolutions, StopOnShortSolutions, intro moves, set play of battle play, ...).
bool split_help(const SolveContext& ctx, std::vector<SplitPhase>& phases);
bool split_direct(const SolveContext& ctx, std::vector<SplitPhase>& phases);
// The lines of one root item (or reply) of help/series play per length of its play: twin 0,
// play `phase`, moves from the play's start.
using LineParts = std::vector<std::vector<PlayLine>>;
// The lines of root move `root` of phase `phase` of split_help, computed alone.
LineParts help_root_lines(const SolveContext& ctx, int phase, int root);
// The key or try of root move `root` of phase `phase` of split_direct with the play below it
// (twin 0), computed alone; none when the move is neither.
std::vector<PlayTree> direct_root_trees(const SolveContext& ctx, int phase, int root);
// The replies after root move `root` of help play `phase` (in the solver's order) when its
// lines are the concatenation of theirs in every length (plain help play; the play of the
// root move alone counts as the first reply's); none otherwise.
std::vector<Move> help_reply_moves(const SolveContext& ctx, int phase, int root);
// The lines of reply `reply` (an index into help_reply_moves) after root move `root` of
// help play `phase`, computed alone.
LineParts help_reply_lines(const SolveContext& ctx, int phase, int root, int reply);
// help_reply_lines of every reply (help_reply_moves order), searched in parallel on
// ctx.threads with shared failure facts; a reply not started by `deadline` (the first always
// is) is left empty.
std::vector<std::optional<LineParts>> help_replies_lines(const SolveContext& ctx, int phase, int root,
                                                         std::chrono::steady_clock::time_point deadline);
// Popeye's text of `lines` of phase `phase` of split_help, and of `tree` of phase `phase` of
// split_direct. Throw std::invalid_argument when a line or tree is not of that play or a
// move of it is not legal where it is played.
std::string help_lines_text(const SolveContext& ctx, int phase, const std::vector<PlayLine>& lines);
std::string direct_tree_text(const SolveContext& ctx, int phase, const PlayTree& tree);
// Throws std::invalid_argument unless each of `moves` is legal (is_legal) in the position
// the ones before it reach from `start`; a null move passes (series play).
void check_line(const Position& start, const std::vector<Move>& moves);
// Throws std::invalid_argument unless node.move is legal in `pos` (a root of kind Key or
// Try, with the attacker to move) and so is each move below it where it is played (threats
// after a pass of the defender, the other children in the position after their parent).
void check_tree(const Position& pos, const PlayNode& node);
// The same for the children of a root without a move (set play, post-key play), `pos` the
// position they are played in (the defender to move; threats after its pass).
void check_tree_below(const Position& pos, const PlayNode& root);
Setup proof_start_setup(const Problem& problem);

}  // namespace rebirth
